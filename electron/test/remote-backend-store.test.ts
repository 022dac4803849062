import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../sidecar/test/support/harness';
import { useKeyringInProcess } from '../../sidecar/test/support/keyring-in-process';
import { KeychainUnavailableError, type KeytarLike, keytarKeychain } from '../src/keychain';
import { REMOTE_TOKEN_ACCOUNT, RemoteBackendStore } from '../src/remote-backend-store';

const loadKeytar = () => createRequire(import.meta.url)('keytar') as KeytarLike;

describe('RemoteBackendStore with the real OS keychain (Secret Service)', () => {
  useKeyringInProcess();
  const dirs: string[] = [];
  const userData = () => {
    const dir = tempDir('electron-userdata');
    dirs.push(dir);
    return dir;
  };

  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the URL in userData and the token only in the keychain', async () => {
    const service = `cairn-test-${randomUUID()}`;
    const keychain = keytarKeychain(loadKeytar, service);
    const dir = userData();
    const store = new RemoteBackendStore(dir, keychain);
    const token = `tok-${randomUUID()}`;

    expect(await store.get()).toBeNull();
    await store.set({ url: 'https://Cairn.Example.com/team/', token });
    expect(await store.get()).toEqual({ url: 'https://cairn.example.com/team', token });

    // The token is really in the Secret Service, under the documented account.
    expect(await loadKeytar().getPassword(service, REMOTE_TOKEN_ACCOUNT)).toBe(token);
    // And nowhere on disk.
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
    expect(files).toEqual(['remote-backend.json']);
    const text = fs.readFileSync(path.join(dir, 'remote-backend.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({ url: 'https://cairn.example.com/team' });
    expect(text).not.toContain(token);

    await store.clear();
    expect(await store.get()).toBeNull();
    expect(fs.existsSync(store.filePath)).toBe(false);
    expect(await loadKeytar().getPassword(service, REMOTE_TOKEN_ACCOUNT)).toBeNull();
  });

  it('reads nothing saved when the token was removed from the keychain or the file is damaged', async () => {
    const service = `cairn-test-${randomUUID()}`;
    const keychain = keytarKeychain(loadKeytar, service);
    const store = new RemoteBackendStore(userData(), keychain);
    await store.set({ url: 'https://cairn.example.com', token: 'tok-1' });
    await keychain.delete(REMOTE_TOKEN_ACCOUNT);
    expect(await store.get()).toBeNull();

    await store.set({ url: 'https://cairn.example.com', token: 'tok-2' });
    fs.writeFileSync(store.filePath, '{ not json');
    expect(await store.get()).toBeNull();
    fs.writeFileSync(store.filePath, JSON.stringify({ url: 'http://example.com' }));
    expect(await store.get()).toBeNull();
  });

  it('refuses to save a URL that would expose the token, and saves nothing then', async () => {
    const service = `cairn-test-${randomUUID()}`;
    const store = new RemoteBackendStore(userData(), keytarKeychain(loadKeytar, service));
    await expect(store.set({ url: 'http://example.com', token: 'tok' })).rejects.toThrow(/must use https/);
    expect(fs.existsSync(store.filePath)).toBe(false);
    expect(await loadKeytar().getPassword(service, REMOTE_TOKEN_ACCOUNT)).toBeNull();
  });
});

describe('keytarKeychain without a usable keychain', () => {
  it('says what to do when keytar cannot be loaded, and loads it lazily', async () => {
    let loads = 0;
    const keychain = keytarKeychain(() => {
      loads += 1;
      throw new Error('Cannot find module keytar');
    });
    expect(loads).toBe(0);
    const error = await keychain.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect((error as Error).message).toMatch(
      /keytar could not be loaded: Cannot find module keytar\)\. Set CAIRN_BACKEND_URL/,
    );
  });

  it('never repeats the secret in an error', async () => {
    const secret = 'very-secret-token-123';
    const keychain = keytarKeychain(() => ({
      getPassword: async () => null,
      deletePassword: async () => false,
      setPassword: async (_service, _account, password) => {
        throw new Error(`backend rejected ${password}`);
      },
    }));
    const error = (await keychain.set('a', secret).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('[REDACTED]');
    expect(error.message).not.toContain(secret);
  });
});
