import { type Keychain, type KeytarLike, keytarStore } from '../../sidecar/src/secrets/keytar-store';

export type { Keychain, KeytarLike } from '../../sidecar/src/secrets/keytar-store';

/** A keychain that cannot be used here; the message says what to do instead. */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
}

const HINT = 'Set CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN in the environment instead.';

/**
 * The host's keychain (it keeps the remote backend's token) over the sidecar's one keytar adapter, loaded on
 * first use: a missing or broken build should only matter once someone saves a remote backend.
 */
export function keytarKeychain(load: () => KeytarLike, service = 'cairn'): Keychain {
  return keytarStore({
    service,
    load,
    unavailable: (kind, reason, cause) =>
      new KeychainUnavailableError(
        kind === 'load'
          ? `No OS keychain is available here (keytar could not be loaded: ${reason}). ${HINT}`
          : `The OS keychain failed (${reason}). ${HINT}`,
        { cause },
      ),
  });
}
