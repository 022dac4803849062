import { randomBytes } from 'node:crypto';

/** How long a login may take, from its authorization URL to the callback. */
export const LOGIN_TTL_MS = 10 * 60_000;

interface Issued<T> {
  owner: T;
  expiresAt: number;
}

/**
 * The `state` values of logins under way (one per server at most), for the OAuth callback: each is taken
 * once, and only before it expires; anything else is refused (a forged, replayed or stale callback).
 */
export class LoginStates<T> {
  private readonly issued = new Map<string, Issued<T>>();

  constructor(private readonly ttlMs = LOGIN_TTL_MS) {}

  /** A new unguessable state for `owner`'s login, valid for the TTL. */
  issue(owner: T): { state: string; expiresAt: number } {
    this.sweep();
    const state = randomBytes(32).toString('base64url');
    const expiresAt = Date.now() + this.ttlMs;
    this.issued.set(state, { owner, expiresAt });
    return { state, expiresAt };
  }

  /** The owner of a state it issued and that has not expired; the state is spent either way. */
  take(state: string): T | null {
    const found = this.issued.get(state);
    this.issued.delete(state);
    if (!found || found.expiresAt <= Date.now()) return null;
    return found.owner;
  }

  /** A login replaced or cancelled: its state is no longer taken. */
  drop(state: string): void {
    this.issued.delete(state);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [state, { expiresAt }] of this.issued) if (expiresAt <= now) this.issued.delete(state);
  }
}
