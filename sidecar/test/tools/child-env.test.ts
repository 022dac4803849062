import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/secrets/known-secrets';
import { childEnv } from '../../src/tools/child-env';

describe('childEnv', () => {
  it("drops Cairn's secret variables, CAIRN_* variables and values holding a known secret", () => {
    registerSecret('registered-secret-value-42');
    const env = childEnv({
      PATH: '/usr/bin',
      HOME: '/home/me',
      CAIRN_TOKEN: 'token-value-123456',
      CAIRN_ANTHROPIC_API_KEY: 'sk-ant-123456789',
      CAIRN_DATA_DIR: '/data',
      cairn_lowercase: 'x',
      ANTHROPIC_API_KEY: 'sk-ant-abcdefghi',
      ANTHROPIC_AUTH_TOKEN: 'auth-token-1234',
      COPIED_KEY: 'registered-secret-value-42',
      HEADER: 'Bearer registered-secret-value-42',
      UNDEFINED_ONE: undefined,
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/me' });
  });

  it("drops the host runtime's variables so programs the agent starts run as themselves", () => {
    const env = childEnv({
      PATH: '/usr/bin',
      ELECTRON_RUN_AS_NODE: '1',
      electron_no_attach_console: '1',
      NODE_OPTIONS: '--require /app/preload.js',
      NODE_ENV: 'development',
    });
    expect(env).toEqual({ PATH: '/usr/bin', NODE_ENV: 'development' });
  });

  it('returns a copy, leaving the base untouched', () => {
    const base = { A: '1', CAIRN_TOKEN: 'token-value-123456' };
    const env = childEnv(base);
    env.A = '2';
    expect(base).toEqual({ A: '1', CAIRN_TOKEN: 'token-value-123456' });
  });

  it('defaults to process.env', () => {
    expect(childEnv().PATH ?? childEnv().Path).toBe(process.env.PATH ?? process.env.Path);
  });
});
