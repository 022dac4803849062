// The one adapter over keytar, shared by the sidecar and the desktop host (which may import only this
// file of the sidecar's secrets: it imports nothing itself). Each wraps it with its own errors and hints.

/** The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux). */
export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The part of keytar used; declared here so type-checking does not need the optional package. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeytarStoreOptions {
  service: string;
  /** Loads keytar: called on first use, since it is optional and native (a broken build only matters then). */
  load: () => KeytarLike;
  /** The error to throw when keytar cannot be loaded (`load`) or a call fails (`call`). */
  unavailable(kind: 'load' | 'call', reason: string, cause: unknown): Error;
}

export function keytarStore(options: KeytarStoreOptions): Keychain {
  let backend: KeytarLike | undefined;
  let loadError: unknown;
  const getBackend = (): KeytarLike => {
    if (backend) return backend;
    if (loadError === undefined) {
      try {
        backend = options.load();
        return backend;
      } catch (error) {
        loadError = error ?? new Error('unknown error');
      }
    }
    throw options.unavailable('load', shortReason(loadError), loadError);
  };
  const call = async <T>(op: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> => {
    const k = getBackend();
    try {
      return await op(k);
    } catch (error) {
      // Native messages do not contain the secret today; scrub anyway so a future one cannot leak it.
      const reason = secret ? shortReason(error).split(secret).join('[REDACTED]') : shortReason(error);
      throw options.unavailable('call', reason, error);
    }
  };
  const { service } = options;
  return {
    get: (account) => call((k) => k.getPassword(service, account)),
    set: (account, secret) => call((k) => k.setPassword(service, account, secret), secret),
    delete: (account) => call((k) => k.deletePassword(service, account)),
  };
}

/** First line of an error message, bounded, for use inside a sentence a person reads. */
export function shortReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split('\n')[0]?.trim() || 'unknown error';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line.replace(/\.$/, '');
}
