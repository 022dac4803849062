import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractCode, NO_CODE_ERROR } from '../../../src/agent/code-mode/code-block';
import { pythonParses } from '../../../src/agent/code-mode/python-syntax';

const parses = pythonParses('python3');

type Case = [name: string, reply: string, stopped: boolean, expected: Record<string, string>];

const CASES: Case[] = [
  [
    'tags closed',
    'I will add them.\n<code>\nx = 1 + 2\nprint(x)\n</code>',
    false,
    { kind: 'tags', code: 'x = 1 + 2\nprint(x)', reasoning: 'I will add them.' },
  ],
  [
    'tags unclosed: the stop sequence took </code>',
    'Adding.\n<code>\nprint(3)\n',
    true,
    { kind: 'tags', code: 'print(3)', reasoning: 'Adding.' },
  ],
  [
    'a python fence inside the tags',
    'Sum.\n<code>\n```python\nprint(sum([1, 2]))\n```\n</code>',
    false,
    { kind: 'tags', code: 'print(sum([1, 2]))', reasoning: 'Sum.' },
  ],
  [
    'prose mentioning <code> before the real block',
    'I put code in <code> tags as asked.\n<code>\nimport math\nprint(math.pi)\n',
    true,
    { kind: 'tags', code: 'import math\nprint(math.pi)', reasoning: 'I put code in <code> tags as asked.' },
  ],
  [
    'a reply that went on past its block: the closed block, not a later mention',
    '<code>\na = 1\n</code>\nNext I will open another <code>\nmaybe later',
    false,
    { kind: 'tags', code: 'a = 1', reasoning: 'Next I will open another <code>\nmaybe later' },
  ],
  [
    'stopped at </code>: the last opening is the block',
    '<code>\na = 1\n</code>\nNow <code>\nb = 2\n',
    true,
    { kind: 'tags', code: 'b = 2', reasoning: '<code>\na = 1\n</code>\nNow' },
  ],
  [
    'fence python',
    'Plan.\n```python\nprint(1)\n```\nThen check.',
    false,
    { kind: 'fence', code: 'print(1)', reasoning: 'Plan.\nThen check.' },
  ],
  ['fence py', '```py\ny = 2\n```', false, { kind: 'fence', code: 'y = 2', reasoning: '' }],
  [
    'plain fence, the last of several, skipping a bash one',
    '```\nold = 1\n```\n```bash\nls\n```\n```\nnew = 2\n```',
    false,
    { kind: 'fence', code: 'new = 2', reasoning: '```\nold = 1\n```\n```bash\nls\n```' },
  ],
  [
    'unclosed fence at the end',
    'Go.\n```python\nfor i in range(2):\n    print(i)\n',
    false,
    { kind: 'fence', code: 'for i in range(2):\n    print(i)', reasoning: 'Go.' },
  ],
  [
    'bare code that parses',
    '\nimport os\nprint(os.sep)\n',
    false,
    { kind: 'bare', code: 'import os\nprint(os.sep)', reasoning: '' },
  ],
  ['prose is not code', 'I think we are done.', false, { kind: 'none', error: NO_CODE_ERROR }],
  ['a lone word parses but is prose', 'Done', false, { kind: 'none', error: NO_CODE_ERROR }],
  [
    'prose with a parenthesis does not parse',
    'The result (see above) is final.',
    false,
    { kind: 'none', error: NO_CODE_ERROR },
  ],
  ['an empty tag block falls through', 'Hmm.\n<code>\n\n', true, { kind: 'none', error: NO_CODE_ERROR }],
];

describe('extractCode', () => {
  it.each(CASES)('%s', async (_name, reply, stopped, expected) => {
    expect(await extractCode(reply, { stoppedAtCloseTag: stopped, parses })).toEqual(expected);
  });

  it('tells the model the expected form, exactly', () => {
    expect(NO_CODE_ERROR).toBe(
      'Your reply had no code to run. Answer with your reasoning, then one code block:\n<code>\nresult = ...\nprint(result)\n</code>\nEnd the task with final_answer(...).',
    );
  });

  it('asks the parser only when the text looks like code', async () => {
    const asked: string[] = [];
    const spy = async (code: string) => {
      asked.push(code);
      return true;
    };
    await extractCode('We are done here', { stoppedAtCloseTag: false, parses: spy });
    await extractCode('x = 1', { stoppedAtCloseTag: false, parses: spy });
    expect(asked).toEqual(['x = 1']);
  });
});

describe('pythonParses', () => {
  it('asks the real interpreter', async () => {
    expect(await parses('def f(x):\n    return x * 2\n')).toBe(true);
    expect(await parses('def f(x)\n    return x')).toBe(false);
    expect(await parses('print("unterminated)')).toBe(false);
  });

  it('counts a reply as not parsing when the interpreter is missing (the model gets the expected form)', async () => {
    expect(await pythonParses('/no/such/python3')('x = 1')).toBe(false);
  });

  it("runs nothing of the project's: isolated, in the temporary folder, without Cairn's environment", async () => {
    // An ast.py where the check would run from, and a variable a secret would be in: neither reaches it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-parse-'));
    const marker = path.join(dir, 'ran');
    fs.writeFileSync(path.join(dir, 'ast.py'), `open(${JSON.stringify(marker)}, "w").close()\n`);
    const cwd = process.cwd();
    process.env.PYTHONPATH = dir;
    try {
      process.chdir(dir);
      expect(await pythonParses()('x = 1')).toBe(true);
    } finally {
      process.chdir(cwd);
      delete process.env.PYTHONPATH;
    }
    expect(fs.existsSync(marker)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
