// `cairn run` asking on the terminal to approve a tool call: the person sees the whole call they approve
// (command, code, the file's full path and content, an edit's strings), with hidden characters shown.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EventPrinter } from '../../src/cli/event-printer';
import type { CairnEvent } from '../../src/protocol';

const WORKSPACE = '/home/ada/project';

/** Prints one event; what reached stdout and stderr. */
async function printed(event: CairnEvent): Promise<{ out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const text = { out: '', err: '' };
  out.on('data', (chunk: Buffer) => {
    text.out += chunk.toString();
  });
  err.on('data', (chunk: Buffer) => {
    text.err += chunk.toString();
  });
  const printer = new EventPrinter(false, out, err, WORKSPACE);
  printer.print(event);
  printer.end();
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

function approval(name: string, input: unknown, question = `Allow ${name}? (shortened)`): CairnEvent {
  return {
    type: 'question.required',
    seq: 1,
    session_id: 'ses_1',
    turn_id: 'trn_1',
    time: new Date(0).toISOString(),
    question: {
      id: 'q_1',
      session_id: 'ses_1',
      turn_id: 'trn_1',
      tool_call_id: 'tc_1',
      kind: question.startsWith('Allow') ? 'approval' : 'question',
      question,
      options: question.startsWith('Allow') ? ['allow', 'deny'] : null,
      tool: question.startsWith('Allow') ? { name, input } : null,
      status: 'pending',
      answer: null,
      created_at: new Date(0).toISOString(),
      answered_at: null,
    },
  } as CairnEvent;
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

describe('cairn run: a tool call waiting for approval', () => {
  it('shows a long Bash command whole, on stderr', async () => {
    const command = `${'echo one two three && '.repeat(200)}echo done`;
    const { out, err } = await printed(approval('Bash', { command, timeout: 30 }));

    expect(out).toBe('');
    expect(err).toContain('? Allow Bash?\n');
    expect(err).toContain(`  command, 1 line, ${command.length} bytes:\n  │ ${command}\n`);
    expect(err).toContain('  timeout: 30 s\n');
    expect(err).not.toContain('(shortened)');
  });

  it('shows execute_code code whole, every line', async () => {
    const code = numbered(300)
      .map((line) => `print(${JSON.stringify(line.padEnd(20, '.'))})`)
      .join('\n');
    const { err } = await printed(approval('execute_code', { code, kernel: 'data' }));

    expect(err).toContain('  kernel: data\n');
    expect(err).toContain('  Python code, 300 lines');
    for (const line of code.split('\n')) expect(err).toContain(`  │ ${line}\n`);
  });

  it('shows the full path and the whole content for Write', async () => {
    const { err } = await printed(approval('Write', { path: 'src/a.ts', content: 'one\n\ttwo\nthree\n' }));

    expect(err).toBe(
      [
        '? Allow Write?',
        `  file: ${WORKSPACE}/src/a.ts (given as src/a.ts)`,
        '  content, 3 lines, 15 bytes:',
        '  │ one',
        '  │ \ttwo',
        '  │ three',
        '',
      ].join('\n'),
    );
  });

  it('shows a very long Write content as its first and last lines around a count of the rest', async () => {
    const lines = numbered(1000);
    const { err } = await printed(approval('Write', { path: '/tmp/big.txt', content: lines.join('\n') }));

    expect(err).toContain('  file: /tmp/big.txt\n');
    expect(err).toContain('  content, 1000 lines');
    expect(err).toContain('  │ line 200\n  … 700 more lines not shown here …\n  │ line 901\n');
    expect(err).toContain('  │ line 1\n');
    expect(err).toContain('  │ line 1000\n');
    expect(err).not.toContain('line 500\n');
  });

  it('shows what an Edit replaces and with what', async () => {
    const { err } = await printed(
      approval('Edit', { path: 'a.py', old_string: 'x = 1\ny = 2', new_string: 'x = 10', replace_all: true }),
    );

    expect(err).toContain(
      [
        `  file: ${WORKSPACE}/a.py (given as a.py)`,
        '  replace every occurrence of, 2 lines, 11 bytes:',
        '  - x = 1',
        '  - y = 2',
        '  with, 1 line, 6 bytes:',
        '  + x = 10',
        '',
      ].join('\n'),
    );
  });

  it('shows another tool’s input whole, as JSON', async () => {
    const input = { query: 'q'.repeat(1000), nested: { list: [1, 2, 3] } };
    const { err } = await printed(approval('mcp__github__search', input));

    expect(err).toContain('? Allow mcp__github__search?\n  input, ');
    for (const line of JSON.stringify(input, null, 2).split('\n')) expect(err).toContain(`  │ ${line}\n`);
  });

  it('shows bidirectional, zero-width and control characters escaped, with a warning', async () => {
    const command =
      'echo safe\u202e ;rm -rf ~\u2066x\u2069 \u200b\u00a0\u001b[2J\r\u0085\ufeff\u2060\u061c done';
    const { err } = await printed(approval('Bash', { command }));

    expect(err).toContain(
      '  │ echo safe\\u202e ;rm -rf ~\\u2066x\\u2069 \\u200b\u00a0\\u001b[2J\\u000d\\u0085\\ufeff\\u2060\\u061c done\n',
    );
    expect(err).toContain('  ⚠ 10 invisible or direction-changing characters shown as \\uXXXX');
    for (const raw of '\u202e\u2066\u2069\u200b\u001b\r\u0085\ufeff\u2060\u061c')
      expect(err).not.toContain(raw);
  });

  it('counts hidden characters in the lines a long content does not show', async () => {
    const lines = numbered(1000);
    lines[499] = 'line 500 \u202e';
    const { err } = await printed(approval('Write', { path: 'x.txt', content: lines.join('\n') }));

    expect(err).toContain('⚠ 1 invisible or direction-changing character shown as \\uXXXX');
    expect(err).toContain('(1 of them in the lines not shown)');
  });

  it('says CRLF line breaks once rather than escaping every CR', async () => {
    const { err } = await printed(approval('Write', { path: 'w.txt', content: 'a\r\nb\r\n' }));

    expect(err).toContain('  content, 2 lines, 6 bytes, CRLF line breaks:\n  │ a\n  │ b\n');
    expect(err).not.toContain('⚠');
  });

  it('escapes hidden characters in a plain question too', async () => {
    const { err } = await printed(approval('', null, 'Delete \u202eall\u202c?'));

    expect(err).toContain('? Delete \\u202eall\\u202c?\n  ⚠ 2 invisible or direction-changing characters');
  });
});
