import { describe, expect, it } from 'vitest';
import { repairFinalAnswer } from '../../../src/agent/code-mode/final-answer-repair';

const CASES: [name: string, code: string, repaired: string][] = [
  ['simple', 'final_answer = 42', 'final_answer(42)'],
  [
    'after other code, with a comment',
    'x = 2\nfinal_answer = x * 3  # done\n',
    'x = 2\nfinal_answer(x * 3)  # done\n',
  ],
  [
    'indented inside try:',
    'try:\n    final_answer = compute()\nexcept Exception:\n    final_answer = None\n',
    'try:\n    final_answer(compute())\nexcept Exception:\n    final_answer(None)\n',
  ],
  [
    'a multi-line dict',
    "final_answer = {\n    'a': 1,  # first\n    'b': [2,\n          3],\n}\nprint('after')",
    "final_answer({\n    'a': 1,  # first\n    'b': [2,\n          3],\n})\nprint('after')",
  ],
  ['after a semicolon', 'y = 1; final_answer = y', 'y = 1; final_answer(y)'],
  [
    'a comparison stays',
    'if final_answer == 3:\n    pass\nfinal_answer == 3',
    'if final_answer == 3:\n    pass\nfinal_answer == 3',
  ],
  [
    'other names stay',
    'my_final_answer = 1\nfinal_answer_text = 2',
    'my_final_answer = 1\nfinal_answer_text = 2',
  ],
  ['a call stays', 'final_answer(result)', 'final_answer(result)'],
  ['a keyword argument stays', 'report(\nfinal_answer = 1)', 'report(\nfinal_answer = 1)'],
  [
    'inside a multi-line string stays',
    'doc = """\nfinal_answer = 1\n"""\n',
    'doc = """\nfinal_answer = 1\n"""\n',
  ],
  ['a string holding brackets and a hash', "final_answer = 'a (b # c'\n", "final_answer('a (b # c')\n"],
];

describe('repairFinalAnswer', () => {
  it.each(CASES)('%s', (_name, code, repaired) => {
    expect(repairFinalAnswer(code)).toBe(repaired);
  });
});
