import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { createKeychain, type KeytarLike } from '../../src/secrets/keychain';
import { knownSecrets } from '../../src/secrets/known-secrets';
import { useKeyringInProcess } from '../support/keyring-in-process';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const keychainModule = pathToFileURL(path.join(repoRoot, 'sidecar/src/secrets/keychain.ts')).href;

interface ChildResult {
  name?: string;
  code?: string;
  message?: string;
  ok?: boolean;
}

/** Uses the keychain in a fresh process, because libsecret caches its bus connection per process. */
function getInChild(env: NodeJS.ProcessEnv): Promise<ChildResult> {
  const script = `
    const { createKeychain } = await import(${JSON.stringify(keychainModule)});
    try {
      await createKeychain('cairn-test').get('nobody');
      console.log(JSON.stringify({ ok: true }));
    } catch (e) {
      console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message }));
    }`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: repoRoot, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`child failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildResult);
        } catch {
          reject(new Error(`child printed no result: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

function withoutSession(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name];
  return env;
}

function secretToolLookup(env: NodeJS.ProcessEnv, service: string, account: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('secret-tool', ['lookup', 'service', service, 'account', account], { env }, (error, stdout) => {
      if (error && error.code !== 1) reject(error);
      else resolve(stdout);
    });
  });
}

describe.runIf(process.platform === 'linux')('keychain against a real Secret Service (gnome-keyring)', () => {
  const inProcess = useKeyringInProcess();

  it('sets, gets and deletes a secret', async () => {
    const service = `cairn-test-${randomUUID()}`;
    const keychain = createKeychain(service);
    const secret = `sk-ant-test-${randomUUID()}`;

    expect(await keychain.get('anthropic')).toBeNull();
    await keychain.set('anthropic', secret);
    expect(knownSecrets()).toContain(secret);
    expect(await keychain.get('anthropic')).toBe(secret);

    // The value really lives in the Secret Service, not in some in-process cache.
    const env = { ...process.env, ...inProcess.keyring.env };
    expect(await secretToolLookup(env, service, 'anthropic')).toBe(secret);

    await keychain.set('anthropic', `${secret}-2`);
    expect(await keychain.get('anthropic')).toBe(`${secret}-2`);

    expect(await keychain.delete('anthropic')).toBe(true);
    expect(await keychain.get('anthropic')).toBeNull();
    expect(await keychain.delete('anthropic')).toBe(false);
    expect(await secretToolLookup(env, service, 'anthropic')).toBe('');
  });
});

describe.runIf(process.platform === 'linux')('keychain without a session bus', () => {
  it('reports keychain_unavailable when no bus is configured and there is no DISPLAY', async () => {
    const result = await getInChild(withoutSession());
    expect(result.name).toBe('CairnError');
    expect(result.code).toBe('keychain_unavailable');
    expect(result.message).toMatch(/^No OS keychain is available here \(.+\)\./);
    expect(result.message).toContain('CAIRN_ANTHROPIC_API_KEY');
  });

  it('reports keychain_unavailable when the bus address points nowhere', async () => {
    const nowhere = path.join(tmpdir(), `cairn-no-bus-${randomUUID()}`, 'bus');
    const result = await getInChild({
      ...withoutSession(),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${nowhere}`,
    });
    expect(result.code).toBe('keychain_unavailable');
    expect(result.message).toContain('CAIRN_ANTHROPIC_API_KEY');
  });
});

describe('keychain error handling', () => {
  const failing = (message: string): KeytarLike => ({
    getPassword: () => Promise.reject(new Error(message)),
    setPassword: () => Promise.reject(new Error(message)),
    deletePassword: () => Promise.reject(new Error(message)),
  });

  it('maps a keytar that cannot load to keychain_unavailable, lazily', async () => {
    let loads = 0;
    const keychain = createKeychain('cairn', {
      load: () => {
        loads++;
        throw new Error('Cannot find module keytar');
      },
    });
    expect(loads).toBe(0);
    const err = await keychain.get('anthropic').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).code).toBe('keychain_unavailable');
    expect((err as CairnError).message).toContain('keytar module could not be loaded');
    await keychain.get('anthropic').catch(() => {});
    expect(loads).toBe(1);
  });

  it('uses the caller-supplied hint', async () => {
    const keychain = createKeychain('cairn', {
      hint: 'Put the token in the MCP server config instead.',
      load: () => failing('Cannot autolaunch D-Bus without X11 $DISPLAY'),
    });
    const err = (await keychain.delete('mcp:github').catch((e: unknown) => e)) as CairnError;
    expect(err.code).toBe('keychain_unavailable');
    expect(err.message).toBe(
      'No OS keychain is available here (Cannot autolaunch D-Bus without X11 $DISPLAY). ' +
        'Put the token in the MCP server config instead.',
    );
  });

  it('never puts the secret into the error', async () => {
    const secret = 'super-secret-value-123';
    const keychain = createKeychain('cairn', { load: () => failing(`could not store ${secret}`) });
    const err = (await keychain.set('anthropic', secret).catch((e: unknown) => e)) as CairnError;
    expect(err.code).toBe('keychain_unavailable');
    expect(err.message).not.toContain(secret);
    expect(JSON.stringify(err)).not.toContain(secret);
  });

  it('registers secrets it reads so logs can redact them', async () => {
    const secret = `read-back-${randomUUID()}`;
    const keychain = createKeychain('cairn', {
      load: () => ({
        getPassword: async () => secret,
        setPassword: async () => {},
        deletePassword: async () => true,
      }),
    });
    expect(await keychain.get('anthropic')).toBe(secret);
    expect(knownSecrets()).toContain(secret);
  });
});
