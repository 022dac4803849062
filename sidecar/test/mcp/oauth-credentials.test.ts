// Where an MCP login's tokens are kept: the keychain, memory only where no keychain exists at all, and a
// log out that reaches the keychain whatever happened before.
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { OAuthCredentials } from '../../src/mcp/oauth/oauth-credentials';
import type { Keychain } from '../../src/secrets/keychain';

const URL = 'https://mcp.example.com/mcp';
const tokens = (access: string) => ({
  access_token: access,
  token_type: 'Bearer',
  refresh_token: `refresh-${access}`,
  obtained_at: 1,
  server_url: URL,
});

function keychain(fail: () => Error | null = () => null) {
  const held = new Map<string, string>();
  const calls: string[] = [];
  const chain: Keychain = {
    async get(account) {
      calls.push(`get ${account}`);
      const err = fail();
      if (err) throw err;
      return held.get(account) ?? null;
    },
    async set(account, secret) {
      calls.push(`set ${account}`);
      const err = fail();
      if (err) throw err;
      held.set(account, secret);
    },
    async delete(account) {
      calls.push(`delete ${account}`);
      return held.delete(account);
    },
  };
  return { chain, held, calls };
}

describe('OAuthCredentials', () => {
  it('keeps tokens in the keychain, reads them once, and forgets them there', async () => {
    const k = keychain();
    const creds = new OAuthCredentials(k.chain);
    await creds.saveTokens('s1', tokens('a1'));
    expect(JSON.parse(k.held.get('mcp-oauth:s1:tokens')!).access_token).toBe('a1');
    expect((await creds.tokens('s1', URL))?.access_token).toBe('a1');
    expect(await creds.tokens('s1', 'https://other.example.com/mcp')).toBeUndefined();
    expect(k.calls.filter((c) => c.startsWith('get'))).toHaveLength(0);
    await creds.forget('s1', 'tokens');
    expect(k.held.has('mcp-oauth:s1:tokens')).toBe(false);
    expect(await creds.tokens('s1', URL)).toBeUndefined();
    expect(creds.storage).toBe('keychain');
  });

  it('falls back to memory only where no keychain exists, and says so', async () => {
    const k = keychain(() => new CairnError('keychain_unavailable', 'no keychain'));
    const creds = new OAuthCredentials(k.chain);
    await creds.saveTokens('s1', tokens('a1'));
    expect(creds.storage).toBe('memory');
    expect((await creds.tokens('s1', URL))?.access_token).toBe('a1');
    await creds.forget('s1', 'all');
    expect(await creds.tokens('s1', URL)).toBeUndefined();
    expect(k.calls).toContain('delete mcp-oauth:s1:tokens');
  });

  it('a keychain that fails otherwise (locked) is an error, not a silent switch to memory', async () => {
    let locked = true;
    const k = keychain(() => (locked ? new Error('the keychain is locked') : null));
    const creds = new OAuthCredentials(k.chain);
    await expect(creds.saveTokens('s1', tokens('a1'))).rejects.toThrow(/locked/);
    expect(creds.storage).toBe('keychain');
    locked = false;
    await creds.saveTokens('s1', tokens('a2'));
    expect(JSON.parse(k.held.get('mcp-oauth:s1:tokens')!).access_token).toBe('a2');
  });
});
