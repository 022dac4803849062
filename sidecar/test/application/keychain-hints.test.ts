import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JUPYTER_TOKEN_HINT,
  KernelProviderService,
} from '../../src/application/kernels/kernel-provider-service';
import { MCP_SECRET_HINT, McpConfigService } from '../../src/application/mcp/mcp-config-service';
import { McpOAuthService } from '../../src/application/mcp/mcp-oauth-service';
import { CairnError } from '../../src/errors';
import { silentLogger } from '../../src/log/logger';
import { createKeychain } from '../../src/secrets/keychain';
import { Store } from '../../src/store/store';

// Where no OS keychain exists, each kind of secret says what to do instead, not the model key's hint.
const noKeychain = () =>
  createKeychain('cairn-test', {
    load: () => {
      throw new Error('libsecret-1.so.0: cannot open shared object file');
    },
  });

const stores: { store: Store; dir: string }[] = [];
afterEach(() => {
  for (const { store, dir } of stores.splice(0)) {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
function openStore(): Store {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hints-'));
  const store = Store.open(dir);
  stores.push({ store, dir });
  return store;
}

async function failure(work: Promise<unknown>): Promise<CairnError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CairnError);
  return err as CairnError;
}

describe('without an OS keychain', () => {
  it('an MCP secret says to use an environment reference, and nothing is stored', async () => {
    const keychain = noKeychain();
    const oauth = new McpOAuthService({ keychain, env: {}, logger: silentLogger });
    const service = new McpConfigService(openStore(), keychain, oauth);
    const server = await service.create({
      name: 's',
      transport: 'stdio',
      command: 'node server.js',
      env: { API_KEY: { secret: true } },
    });
    const err = await failure(service.setSecrets(server.id, { API_KEY: 'value-0123456789' }));
    expect(err.code).toBe('keychain_unavailable');
    expect(err.message).toBe(MCP_SECRET_HINT);
    expect((await service.get(server.id)).env.API_KEY).toEqual({ secret: true, has_value: false });
  });

  it('a Jupyter token says to use CAIRN_JUPYTER_URL and CAIRN_JUPYTER_TOKEN, and the provider stays local', async () => {
    const service = new KernelProviderService({ store: openStore(), keychain: noKeychain(), env: {} });
    const err = await failure(
      service.update({
        provider: 'jupyter',
        jupyter_url: 'https://jupyter.example.com/',
        jupyter_token: 't0ken-0123456789',
      }),
    );
    expect(err.code).toBe('keychain_unavailable');
    expect(err.message).toBe(JUPYTER_TOKEN_HINT);
    expect((await service.get()).provider).toBe('local');
  });
});
