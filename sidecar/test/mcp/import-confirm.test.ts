// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { applyAnswers, confirmImport, previewImport } from '../../src/mcp/import';
import { McpConfigError } from '../../src/mcp/mcp-config-error';
import type { McpImportCandidate } from '../../src/protocol/mcp';

const stdio = (command: string, env: McpImportCandidate['server']['env'] = {}): McpImportCandidate => ({
  name: 's',
  server: { name: 's', transport: 'stdio', command, env },
  questions: [],
  warnings: [],
  exists: false,
});

describe('applyAnswers', () => {
  it('substitutes literal answers word by word, so answers with spaces and quotes stay one argument', () => {
    const { server } = applyAnswers(stdio(`node '\${input:dir}/x' '--name=\${input:name}'`), {
      'input:dir': "/home/o'brien/my dir",
      'input:name': 'a "b"',
    });
    expect(server.command).toBe(`node '/home/o'\\''brien/my dir/x' '--name=a "b"'`);
  });

  it('turns a whole env value into an env reference, a secret, or text, as answered', () => {
    const candidate = stdio('node', { A: '${input:a}', B: '${input:b}', C: '${input:c}', D: 'x-${input:c}' });
    const { server, secrets } = applyAnswers(candidate, {
      'input:a': { env: 'FROM_ENV' },
      'input:b': { secret: 'hunter2' },
      'input:c': 'text',
    });
    expect(server.env).toEqual({ A: { env: 'FROM_ENV' }, B: { secret: true }, C: 'text', D: 'x-text' });
    expect(secrets).toEqual([{ name: 'B', value: 'hunter2' }]);
  });

  it('refuses an env reference or a secret inside the command line', () => {
    expect(() => applyAnswers(stdio(`node '\${input:a}'`), { 'input:a': { env: 'X' } })).toThrow(
      /input:a.*part of the command line.*give a literal/,
    );
    expect(() => applyAnswers(stdio(`node '\${input:a}'`), { 'input:a': { secret: 'x' } })).toThrow(
      McpConfigError,
    );
  });

  it('names every unanswered question', () => {
    expect(() => applyAnswers(stdio(`node '\${a}' '\${b}'`, { E: '${c}' }), { a: 'x' })).toThrow(
      /Server "s" needs answers for b, c/,
    );
  });

  it('validates the result as a CreateMcpServerRequest', () => {
    const tooLong = 'x'.repeat(40_000);
    expect(() => applyAnswers(stdio(`node '\${a}'`), { a: tooLong })).toThrow(
      /would not be a valid configuration: command/,
    );
  });

  it('ignores answers to questions a server does not have', () => {
    expect(applyAnswers(stdio('node'), { other: { env: 'X' } }).server.command).toBe('node');
  });
});

describe('confirmImport', () => {
  const text = JSON.stringify({
    mcpServers: {
      a: { command: 'node', args: ['a.js'] },
      b: { command: 'node', args: ['${B}'] },
      taken: { command: 'x' },
    },
  });
  const preview = previewImport('claude_code', text, null, ['taken']);

  it('returns only the selected servers, once each, in the order named', () => {
    const result = confirmImport(preview, ['b', 'a', 'b'], { B: 'b.js' });
    expect(result.servers.map((s) => [s.name, s.command])).toEqual([
      ['b', 'node b.js'],
      ['a', 'node a.js'],
    ]);
  });

  it('refuses a name not in the file, listing the ones that are', () => {
    expect(() => confirmImport(preview, ['zzz'])).toThrow(
      /no server named "zzz". Its servers: "a", "b", "taken"/,
    );
  });

  it('refuses a server whose name Cairn already uses', () => {
    expect(() => confirmImport(preview, ['taken'])).toThrow(/already has a server named "taken"/);
  });

  it('does not need answers for servers left out', () => {
    expect(confirmImport(preview, ['a']).servers).toHaveLength(1);
    expect(() => confirmImport(preview, ['a', 'b'])).toThrow(/needs answers for B/);
  });
});
