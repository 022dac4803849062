import { createRequire } from 'node:module';
import { badRequest, CairnError } from '../errors';
import { registerSecret } from './known-secrets';

/** The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux). */
export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The part of keytar this adapter uses; declared here so type-checking does not need the optional package. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainOptions {
  /** What the user can do instead, appended to the keychain_unavailable message. */
  hint?: string;
  /** Loads the backend; defaults to requiring keytar. Injectable for tests. */
  load?: () => KeytarLike;
}

export const ANTHROPIC_KEY_HINT = 'Set CAIRN_ANTHROPIC_API_KEY in the environment instead.';

export function createKeychain(service = 'cairn', options: KeychainOptions = {}): Keychain {
  const hint = options.hint ?? ANTHROPIC_KEY_HINT;
  const load = options.load ?? loadKeytar;
  let backend: KeytarLike | undefined;
  let loadError: unknown;

  const unavailable = (reason: string, cause: unknown, secret?: string): CairnError => {
    // Native messages never contain the secret today; scrub anyway so a future one cannot leak it.
    const safe = secret ? reason.split(secret).join('[REDACTED]') : reason;
    return new CairnError('keychain_unavailable', `No OS keychain is available here (${safe}). ${hint}`, {
      cause,
    });
  };

  // keytar is optional and native: load it on first use so a missing or broken build only matters
  // to callers that actually need the keychain.
  const getBackend = (): KeytarLike => {
    if (backend) return backend;
    if (loadError === undefined) {
      try {
        backend = load();
        return backend;
      } catch (err) {
        loadError = err ?? new Error('unknown error');
      }
    }
    throw unavailable(`the keytar module could not be loaded: ${shortReason(loadError)}`, loadError);
  };

  const call = async <T>(op: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> => {
    const k = getBackend();
    try {
      return await op(k);
    } catch (err) {
      throw unavailable(shortReason(err), err, secret);
    }
  };

  return {
    async get(account) {
      checkAccount(account);
      const value = await call((k) => k.getPassword(service, account));
      registerSecret(value);
      return value;
    },
    async set(account, secret) {
      checkAccount(account);
      if (!secret) throw badRequest('The secret to store is empty; delete it instead.');
      registerSecret(secret);
      await call((k) => k.setPassword(service, account, secret), secret);
    },
    async delete(account) {
      checkAccount(account);
      return call((k) => k.deletePassword(service, account));
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

/** First line of an error message, bounded, for use inside a user-facing sentence. */
function shortReason(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const line = raw.split('\n')[0]?.trim() || 'unknown error';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line.replace(/\.$/, '');
}
