import type { McpConnection } from '../../mcp/mcp-connection';
import type { LoginEvent } from '../../mcp/oauth/server-oauth';
import type { McpConnectionState } from '../../protocol';
import type { McpServerRow } from '../../store/mcp-servers-repo';
import type { McpOAuthService } from './mcp-oauth-service';

/** One server of a session: its connection and what the session panel shows of it. */
export interface ServerSlot {
  row: McpServerRow;
  connection: McpConnection | null;
  state: McpConnectionState | 'not_started';
  error: string | null;
  /** While `auth_required`: where the user logs in. */
  authorizationUrl: string | null;
  /** When it last turned `auth_required` (a login completed after that lets it connect at once). */
  authRequiredAt: number;
  /** Connected, but a call waits for a login (a step-up, or tokens that lapsed): `connected` again after. */
  loginInCall: boolean;
  /** A turn waits for its login before its first request (and connects it after). */
  turnWaits: boolean;
  stopWatching: (() => void) | null;
}

/** A call of the slot's connection waits for a login (`url`), or none does any more (null). */
export function applyCallLogin(slot: ServerSlot, url: string | null): void {
  if (url !== null && slot.connection) {
    slot.state = 'auth_required';
    slot.loginInCall = true;
    slot.authorizationUrl = url;
  } else if (url === null && slot.loginInCall) {
    slot.loginInCall = false;
    slot.state = slot.connection?.state ?? 'failed';
    slot.authorizationUrl = null;
  }
}

/**
 * A login of the slot's server began or ended elsewhere (Log in in settings, another session): a slot that
 * waits for a login to connect shows its URL. Whether the slot changed.
 */
export function applyLoginEvent(slot: ServerSlot, event: LoginEvent): boolean {
  if (slot.connection || slot.state !== 'auth_required') return false;
  if (event.kind === 'required') {
    slot.authorizationUrl = event.url;
    return true;
  }
  // The login ended: its URL is spent whatever the outcome (Log in starts another).
  slot.authorizationUrl = null;
  if (event.kind === 'authorized') slot.error = 'Logged in: it connects at the next message.';
  else if (event.kind === 'failed') slot.error = event.why;
  return true;
}

/**
 * Each slot that needs a login is waited for (whatever block_on_failure says), then connected. Ended by the
 * turn's cancel (`signal`) or the login wait; a server still without a login stays `auth_required` with the
 * reason, and the turn goes on without it (or stops, if it blocks the session).
 */
export async function waitForLogins(
  slots: ServerSlot[],
  oauth: McpOAuthService,
  signal: AbortSignal | undefined,
  hooks: { report(slot: ServerSlot): void; connect(slot: ServerSlot): Promise<void>; current(): boolean },
): Promise<void> {
  // A server with no login to wait for (logins refused here: the reason is in its error) is not waited for.
  const waiting = slots.filter((s) => s.state === 'auth_required' && !s.connection && s.authorizationUrl);
  await Promise.all(
    waiting.map(async (slot) => {
      // A token refused right after a login gets one more login.
      for (let round = 0; round < 2 && slot.state === 'auth_required' && !signal?.aborted; round++) {
        slot.turnWaits = true;
        try {
          await oauth.waitForLogin(slot.row.id, slot.authRequiredAt, signal);
        } catch (err) {
          slot.error = `${err instanceof Error ? err.message : String(err)}; the turn went on without its tools`;
          // Nothing waits for that login any more: Log in starts it again (or gives the one still open).
          slot.authorizationUrl = null;
          hooks.report(slot);
          return;
        } finally {
          slot.turnWaits = false;
        }
        if (!hooks.current()) return;
        await hooks.connect(slot);
      }
    }),
  );
}
