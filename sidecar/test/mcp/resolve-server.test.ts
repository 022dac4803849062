import { describe, expect, it } from 'vitest';
import { resolveServer } from '../../src/mcp/resolve-server';
import type { Keychain } from '../../src/secrets/keychain';
import type { McpServerConfig } from '../../src/store/mcp-servers-repo';

/** An in-memory keychain: the resolver only reads from it. */
function memoryKeychain(entries: Record<string, string>): Keychain {
  return {
    get: async (account) => entries[account] ?? null,
    set: async () => {},
    delete: async () => true,
  };
}

const base: McpServerConfig = {
  name: 'srv',
  transport: 'stdio',
  command: 'npx -y "@scope/server" --root "/a b"',
  env: {},
  url: null,
  headers: {},
  bearer_token: null,
  oauth: null,
  allow_tools: null,
  deny_tools: [],
  startup_timeout_sec: 5,
  tool_timeout_sec: 7,
  block_on_failure: false,
};

const options = (over: Partial<Parameters<typeof resolveServer>[1]> = {}) => ({
  serverId: 'mcp_1',
  cwd: '/project',
  baseEnv: { PATH: '/usr/bin', HOME: '/home/u' },
  lookupEnv: { GITHUB_TOKEN: 'gh-value', CAIRN_TOKEN: 'cairn-server-token', ANTHROPIC_API_KEY: 'sk-ant-x' },
  keychain: memoryKeychain({ 'acct:mcp_1:API_KEY': 'from-keychain', 'acct:mcp_1:bearer_token': 'tok' }),
  secretAccount: (id: string, name: string) => `acct:${id}:${name}`,
  platform: 'linux' as NodeJS.Platform,
  ...over,
});

describe('resolveServer', () => {
  it('splits the command line and resolves literal, env and secret values, reporting their sources', async () => {
    const { server, envSources } = await resolveServer(
      { ...base, env: { PLAIN: 'x', TOKEN: { env: 'GITHUB_TOKEN' }, API_KEY: { secret: true } } },
      options(),
    );
    expect(server).toMatchObject({
      program: 'npx',
      args: ['-y', '@scope/server', '--root', '/a b'],
      cwd: '/project',
      startupTimeoutMs: 5000,
      toolTimeoutMs: 7000,
    });
    expect(server.env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PLAIN: 'x',
      TOKEN: 'gh-value',
      API_KEY: 'from-keychain',
    });
    expect(envSources).toEqual({ PLAIN: 'literal', TOKEN: 'env', API_KEY: 'secret' });
  });

  it('folds the bearer token into Authorization for HTTP servers, and gives them no env', async () => {
    const { server } = await resolveServer(
      {
        ...base,
        transport: 'streamable_http',
        command: null,
        url: 'https://mcp.example.com/mcp',
        headers: { 'X-Team': { env: 'GITHUB_TOKEN' } },
        bearer_token: { secret: true },
      },
      options(),
    );
    expect(server).toMatchObject({ program: null, args: [], cwd: null, env: {} });
    expect(server.headers).toEqual({ 'X-Team': 'gh-value', Authorization: 'Bearer tok' });
  });

  it('names what is missing rather than passing an empty value', async () => {
    await expect(
      resolveServer({ ...base, env: { A: { env: 'NOT_SET_ANYWHERE' } } }, options()),
    ).rejects.toThrow(/NOT_SET_ANYWHERE, which is not set/);
    await expect(resolveServer({ ...base, env: { OTHER: { secret: true } } }, options())).rejects.toThrow(
      /secret without a value.*secrets/,
    );
  });

  it('never hands Cairn’s own secrets to a server through a reference', async () => {
    for (const name of ['CAIRN_TOKEN', 'ANTHROPIC_API_KEY', 'cairn_backend_token']) {
      await expect(resolveServer({ ...base, env: { X: { env: name } } }, options())).rejects.toThrow(
        /Cairn's own secrets/,
      );
    }
  });

  it('runs a .cmd launcher through cmd.exe on Windows, and an .exe directly', async () => {
    const windows = (existing: string) =>
      options({
        platform: 'win32',
        baseEnv: {
          Path: 'C:\\nodejs',
          PATHEXT: '.COM;.EXE;.BAT;.CMD',
          ComSpec: 'C:\\Windows\\System32\\cmd.exe',
        },
        fileExists: (file: string) => file.toLowerCase() === existing.toLowerCase(),
      });
    const viaCmd = await resolveServer({ ...base, command: 'npx -y server' }, windows('C:\\nodejs\\npx.cmd'));
    expect(viaCmd.server.program).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(viaCmd.server.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(viaCmd.server.args[3]?.toLowerCase()).toContain('npx.cmd');
    expect(viaCmd.server.windowsVerbatimArguments).toBe(true);
    const direct = await resolveServer(
      { ...base, command: 'node server.js' },
      windows('C:\\nodejs\\node.exe'),
    );
    expect(direct.server.program?.toLowerCase()).toBe('c:\\nodejs\\node.exe'); // Windows names ignore case
    expect(direct.server.args).toEqual(['server.js']);
    expect(direct.server.windowsVerbatimArguments).toBe(false);
  });
});
