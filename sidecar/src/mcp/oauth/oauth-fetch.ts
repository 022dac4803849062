import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { parseSecureUrl } from '../../config/secure-url';
import { McpLoginRequired, type ServerOAuth } from './server-oauth';

/** Logins with wider scopes one request may ask for before its 403 `insufficient_scope` is final. */
export const STEP_UP_LIMIT = 2;

/** A call waiting for the user to log in: its clock stops, and its cancel ends the wait. */
export interface LoginWaiter {
  signal: AbortSignal;
  pause(): void;
  resume(): void;
}

export interface OAuthFetchHooks {
  /** The call a request belongs to (by its JSON-RPC id); null outside calls (connecting, listing tools). */
  waiterFor(id: string | number | null): LoginWaiter | null;
  /** How long a call waits for a login. */
  loginWaitMs: number;
}

function requestId(body: unknown): string | number | null {
  if (typeof body !== 'string') return null;
  try {
    const msg = JSON.parse(body) as { id?: unknown };
    return typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
  } catch {
    return null;
  }
}

/**
 * The transport's fetch with the server's OAuth login: each request carries the current access token; a 401
 * refreshes it (or starts a login), a 403 `insufficient_scope` starts a login with the scopes the server
 * names (at most STEP_UP_LIMIT per request). A call waits for the user's login and is then sent again (the
 * server refused it unread); anything else needing a login fails with McpLoginRequired.
 */
export function oauthFetch(base: FetchLike, oauth: ServerOAuth, hooks: OAuthFetchHooks): FetchLike {
  return async (input, init) => {
    let stepUps = 0;
    let recovered = false;
    for (;;) {
      const headers = new Headers(init?.headers);
      const token = await oauth.accessToken();
      if (token) headers.set('authorization', `Bearer ${token}`);
      const response = await base(input, { ...init, headers });
      const challenge =
        response.status === 401 || response.status === 403 ? extractWWWAuthenticateParams(response) : null;
      const stepUp = response.status === 403 && challenge?.error === 'insufficient_scope';
      if (response.status !== 401 && !stepUp) return response;
      if (stepUp && stepUps >= STEP_UP_LIMIT) {
        // Final: the SDK turns it into the call's error (the server's own message, with the scope it wants).
        return response;
      }
      await response.body?.cancel().catch(() => {});
      const found = {
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
        ...(challenge?.scope ? { scope: challenge.scope } : {}),
      };
      if (stepUp) {
        stepUps++;
        await oauth.stepUp(found);
      } else if (!recovered) {
        recovered = true;
        if ((await oauth.recover(found)) === 'authorized') continue;
      } else {
        // A token the authorization server just gave was refused: only a new login can help.
        await oauth.stepUp(found);
      }
      const waiter = hooks.waiterFor(requestId(init?.body));
      if (!waiter) throw new McpLoginRequired(oauth.serverName, oauth.authorizationUrl);
      waiter.pause();
      try {
        await oauth.waitForLogin(waiter.signal, hooks.loginWaitMs);
      } finally {
        waiter.resume();
      }
      recovered = false;
    }
  };
}

/**
 * fetch for discovery, registration and token requests: https, or plain http to this machine only (codes
 * and tokens would cross the network in the clear), and no redirect followed.
 */
export function oauthRequestFetch(): FetchLike {
  return async (input, init) => {
    const url = String(input);
    const checked = parseSecureUrl(url);
    if (checked.problem !== null) {
      throw new Error(
        `refusing the OAuth request to ${url}: it must be https (plain http only to this machine), without credentials`,
      );
    }
    return fetch(input, { ...init, redirect: 'manual' });
  };
}
