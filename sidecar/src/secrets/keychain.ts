import { createRequire } from 'node:module';
import { badRequest, CairnError } from '../errors';
import { type Keychain, type KeytarLike, keytarStore } from './keytar-store';
import { registerSecret } from './known-secrets';

export type { Keychain, KeytarLike } from './keytar-store';

export interface KeychainOptions {
  /** What the user can do instead, appended to the keychain_unavailable message. */
  hint?: string;
  /** Loads the backend; defaults to requiring keytar. Injectable for tests. */
  load?: () => KeytarLike;
}

export const ANTHROPIC_KEY_HINT = 'Set CAIRN_ANTHROPIC_API_KEY in the environment instead.';

export function createKeychain(service = 'cairn', options: KeychainOptions = {}): Keychain {
  const hint = options.hint ?? ANTHROPIC_KEY_HINT;
  const store = keytarStore({
    service,
    load: options.load ?? loadKeytar,
    unavailable: (kind, reason, cause) =>
      new CairnError(
        'keychain_unavailable',
        `No OS keychain is available here (${kind === 'load' ? `the keytar module could not be loaded: ${reason}` : reason}). ${hint}`,
        { cause },
      ),
  });
  return {
    async get(account) {
      checkAccount(account);
      const value = await store.get(account);
      registerSecret(value);
      return value;
    },
    async set(account, secret) {
      checkAccount(account);
      if (!secret) throw badRequest('The secret to store is empty; delete it instead.');
      registerSecret(secret);
      await store.set(account, secret);
    },
    async delete(account) {
      checkAccount(account);
      return store.delete(account);
    },
  };
}

/**
 * A keychain_unavailable error with `hint` as what to do instead: the keychain's own hint is about the model
 * key, and a caller keeping another secret (a Jupyter token, an MCP secret) names its own way round. Any other
 * error is returned as it is.
 */
export function withKeychainHint(err: unknown, hint: string): unknown {
  if (err instanceof CairnError && err.code === 'keychain_unavailable') {
    return new CairnError('keychain_unavailable', hint, { cause: err });
  }
  return err;
}

function loadKeytar(): KeytarLike {
  const mod = createRequire(import.meta.url)('keytar') as KeytarLike & { default?: KeytarLike };
  // Some bundlers wrap CommonJS exports in `default`.
  return typeof mod.getPassword === 'function' ? mod : (mod.default ?? mod);
}

function checkAccount(account: string): void {
  // keytar would reject these too, but its error would be misreported as "keychain unavailable".
  if (!account) throw badRequest('The keychain account name is empty.');
}
