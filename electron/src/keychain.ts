/** The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux). */
export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The part of keytar used here; declared so type-checking does not need the optional package. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** A keychain that cannot be used here; the message says what to do instead. */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
}

const HINT = 'Set CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN in the environment instead.';

function reasonOf(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split('\n')[0]?.trim() || 'unknown error';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line.replace(/\.$/, '');
}

/**
 * A Keychain over keytar, loaded on first use: keytar is an optional native module, and a missing
 * or broken build should only matter once someone saves a remote backend.
 */
export function keytarKeychain(load: () => KeytarLike, service = 'cairn'): Keychain {
  let backend: KeytarLike | undefined;
  const getBackend = (): KeytarLike => {
    if (backend) return backend;
    try {
      backend = load();
      return backend;
    } catch (error) {
      throw new KeychainUnavailableError(
        `No OS keychain is available here (keytar could not be loaded: ${reasonOf(error)}). ${HINT}`,
        { cause: error },
      );
    }
  };
  const call = async <T>(op: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> => {
    const k = getBackend();
    try {
      return await op(k);
    } catch (error) {
      // Native messages do not contain the secret today; scrub anyway so a future one cannot leak it.
      const reason = secret ? reasonOf(error).split(secret).join('[REDACTED]') : reasonOf(error);
      throw new KeychainUnavailableError(`The OS keychain failed (${reason}). ${HINT}`, { cause: error });
    }
  };
  return {
    get: (account) => call((k) => k.getPassword(service, account)),
    set: (account, secret) => call((k) => k.setPassword(service, account, secret), secret),
    delete: (account) => call((k) => k.deletePassword(service, account)),
  };
}
