// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { confirmImport, previewImport } from '../../src/mcp/import';
import { McpConfigError } from '../../src/mcp/mcp-config-error';
import type { McpImportCandidate } from '../../src/protocol/mcp';

/** Previews a Claude Code file holding these server entries. */
function candidates(servers: Record<string, unknown>): Record<string, McpImportCandidate> {
  const preview = previewImport('claude_code', JSON.stringify({ mcpServers: servers }), null, []);
  return Object.fromEntries(preview.candidates.map((c) => [c.name, c]));
}

describe('server entries', () => {
  it('tells stdio from HTTP by type, or by url without command', () => {
    const c = candidates({
      a: { command: 'node', args: ['a.js'] },
      b: { type: 'stdio', command: 'node' },
      c: { url: 'https://x.example/mcp' },
      d: { type: 'http', url: 'https://x.example/mcp' },
      e: { type: 'streamable-http', url: 'https://x.example/mcp' },
      f: { type: 'streamableHttp', url: 'https://x.example/mcp' },
    });
    expect(Object.values(c).map((x) => x.server.transport)).toEqual([
      'stdio',
      'stdio',
      'streamable_http',
      'streamable_http',
      'streamable_http',
      'streamable_http',
    ]);
  });

  it('quotes arguments into one command line that reads back exactly', () => {
    const c = candidates({ s: { command: 'C:\\Program Files\\tool.exe', args: ["it's", '', 'a b', '$X'] } });
    expect(c.s!.server.command).toBe(`'C:\\Program Files\\tool.exe' 'it'\\''s' '' 'a b' '$X'`);
  });

  it.each([
    [{ type: 'websocket', url: 'wss://x' }, /transport "websocket" is unknown/],
    [{ args: ['x'] }, /needs its "command"/],
    [{ command: 'node', args: 'x.js' }, /"args" should be a list/],
    [{ command: 'node', args: [1] }, /"args" should be a list/],
    [{ type: 'http' }, /needs its "url"/],
    [{ command: 'node', env: { A: { nested: 1 } } }, /"env.A" should be text/],
    ['npx server', /not an object/],
  ])('marks %j as not importable, and confirm refuses it', (entry, why) => {
    const c = candidates({ bad: entry, good: { command: 'node' } });
    expect(c.bad!.warnings[0]).toMatch(/^Cannot be imported: /);
    expect(c.bad!.warnings[0]).toMatch(why);
    expect(() =>
      confirmImport(previewImport('claude_code', JSON.stringify({ mcpServers: { bad: entry } }), null, []), [
        'bad',
      ]),
    ).toThrow(why);
  });

  it('carries numbers and booleans in env as text, and leaves out names Cairn cannot use', () => {
    const c = candidates({ s: { command: 'node', env: { PORT: 3000, DEBUG: true, 'BAD-NAME': 'x' } } });
    expect(c.s!.server.env).toEqual({ PORT: '3000', DEBUG: 'true' });
    expect(c.s!.warnings.join(' ')).toMatch(/"BAD-NAME" was left out/);
  });

  it('warns when a whole command line sits in "command"', () => {
    const c = candidates({ s: { command: 'npx -y server' } });
    expect(c.s!.server.command).toBe(`'npx -y server'`);
    expect(c.s!.warnings.join(' ')).toMatch(/taken as one program name/);
  });

  it('keeps literal credentials out of the config, by name, and keeps other literals', () => {
    const c = candidates({
      s: {
        command: 'node',
        env: { OPENAI_API_KEY: 'sk-1', DB_PASSWORD: 'pw', REGION: 'eu', EMPTY_TOKEN: '' },
      },
      h: {
        url: 'https://x.example/mcp',
        headers: { Authorization: 'Bearer tok', 'X-Api-Key': 'k', Accept: 'a' },
      },
    });
    expect(c.s!.server.env).toEqual({
      OPENAI_API_KEY: { secret: true },
      DB_PASSWORD: { secret: true },
      REGION: 'eu',
      EMPTY_TOKEN: '',
    });
    expect(c.h!.server.headers).toEqual({ 'X-Api-Key': { secret: true }, Accept: 'a' });
    expect(c.h!.server.bearer_token).toEqual({ secret: true });
  });

  it('keeps an Authorization header that is not a bearer token as a header', () => {
    const c = candidates({
      h: { url: 'https://x.example/mcp', headers: { Authorization: 'Basic ${CREDS}' } },
    });
    expect(c.h!.server.headers).toEqual({ Authorization: 'Basic ${CREDS}' });
    expect(c.h!.server.bearer_token).toBeUndefined();
    expect(c.h!.questions).toEqual(['CREDS']);
  });

  it('shortens a name longer than Cairn allows, and warns', () => {
    const long = 'x'.repeat(120);
    const c = candidates({ [long]: { command: 'node' } });
    expect(c[long]!.server.name).toHaveLength(100);
    expect(c[long]!.warnings.join(' ')).toMatch(/shortened/);
    expect(
      confirmImport(
        previewImport(
          'claude_code',
          JSON.stringify({ mcpServers: { [long]: { command: 'node' } } }),
          null,
          [],
        ),
        [long],
      ).servers[0]!.name,
    ).toHaveLength(100);
  });

  it('asks about placeholders in the program name and URL too', () => {
    const c = candidates({
      s: { command: '${TOOLS}/bin/server' },
      h: { url: 'https://${HOST}/mcp' },
    });
    expect(c.s!.questions).toEqual(['TOOLS']);
    expect(c.h!.questions).toEqual(['HOST']);
  });

  it('raises McpConfigError (a bad request) for invalid JSON', () => {
    expect(() => previewImport('cursor', '{"mcpServers": {', '/m.json', [])).toThrow(McpConfigError);
  });
});
