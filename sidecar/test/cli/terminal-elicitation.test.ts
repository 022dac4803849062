// The terminal form of `cairn run`, in process over plain streams: the server's text (defaults, choices and
// errors quoting them) reaches the terminal with control characters escaped, as the rest of its text does.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askElicitationAtTerminal } from '../../src/cli/terminal-elicitation';
import type { Question } from '../../src/protocol';

/** Runs the form, typing each answer once the next prompt ("> ") shows; returns the answer and the output. */
async function ask(schema: Record<string, unknown>, answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  let prompts = 0;
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString('utf8');
    const seen = shown.split('> ').length - 1;
    while (prompts < seen && prompts < answers.length) input.write(`${answers[prompts++]}\n`);
  });
  const question = {
    elicitation: { server_id: 's', server_name: 'evil', requested_schema: schema },
  } as unknown as Question;
  const answer = await askElicitationAtTerminal(question, new AbortController().signal, { input, output });
  return { answer, shown };
}

describe('askElicitationAtTerminal', () => {
  it('escapes the escape sequences in a default, a choice and the error quoting the choices', async () => {
    const osc = '\u001b]52;c;aGk=\u0007';
    const { answer, shown } = await ask(
      {
        type: 'object',
        properties: {
          note: { type: 'string', default: `\u001b[2Kerase${osc}` },
          pick: { type: 'string', enum: [`a${osc}`, 'b'], default: 'b' },
        },
      },
      ['1', '', 'nope', '2'],
    );
    expect(answer).toEqual({ answer: 'accept', content: { note: `\u001b[2Kerase${osc}`, pick: 'b' } });
    // Not one control character reached the terminal: each shows as \uXXXX.
    expect([...shown].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'))).toEqual([]);
    expect(shown).toContain('Enter: \\u001b[2Kerase\\u001b]52;c;aGk=\\u0007');
    expect(shown).toMatch(/must be one of: a\\u001b\]52;c;aGk=\\u0007, b\./);
  });

  it('takes numbers as JSON writes them, asking again for anything else', async () => {
    const { answer, shown } = await ask(
      { type: 'object', properties: { n: { type: 'number' }, k: { type: 'integer' } }, required: ['n', 'k'] },
      ['1', '0x1A', '2.5e1', ' 7', '7'],
    );
    expect(answer).toEqual({ answer: 'accept', content: { n: 25, k: 7 } });
    expect(shown.split('must be a number').length - 1).toBe(1);
  });
});
