import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isLoopbackHost } from '../../config/loopback';
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
    let logins = 0;
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
      if ((stepUp && stepUps >= STEP_UP_LIMIT) || logins > STEP_UP_LIMIT) {
        // Final: the SDK turns it into the call's error (the server's own message, with the scope it wants).
        return response;
      }
      await response.body?.cancel().catch(() => {});
      const found = {
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
        ...(challenge?.scope ? { scope: challenge.scope } : {}),
      };
      try {
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
      } catch (err) {
        if (err instanceof McpLoginRequired) throw err;
        throw new Error(
          `it asks for a login (HTTP ${response.status}), which could not start: ${(err as Error).message}. If it takes an API key or a token instead, set it as its bearer token or a header`,
          { cause: err },
        );
      }
      const waiter = hooks.waiterFor(requestId(init?.body));
      if (!waiter) throw new McpLoginRequired(oauth.serverName, oauth.authorizationUrl);
      logins++;
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

/** Limits on the authorization server's answers: a slow or huge one must not hold up or fill Cairn. */
export const OAUTH_REQUEST_LIMITS = { timeoutMs: 15_000, bodyBytes: 256 * 1024 } as const;

/** Statuses a Response may not be built with a body for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Loopback, private (RFC 1918, unique-local) and link-local addresses, written as IP literals or localhost. */
function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(host) || host === '0.0.0.0' || host === '::') return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

/** A body read whole, up to `max` bytes (more is an error naming the limit). */
async function boundedBody(response: Response, max: number): Promise<ArrayBuffer> {
  const reader = response.body?.getReader();
  if (!reader) return new ArrayBuffer(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new Error(`the authorization server's answer is over ${max / 1024} KiB`);
    }
    chunks.push(value);
  }
  const buffer = new ArrayBuffer(total);
  const body = new Uint8Array(buffer);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return buffer;
}

/**
 * fetch for discovery, registration and token requests to the places an MCP server's metadata names: https
 * (plain http only to this machine: codes and tokens would cross the network in the clear), no redirect
 * followed, an answer within OAUTH_REQUEST_LIMITS, and no address inside the network unless the MCP server
 * itself is there (its metadata must not steer Cairn at services the user never named).
 */
export function oauthRequestFetch(serverUrl: string): FetchLike {
  const serverInternal = isInternalHost(new URL(serverUrl).hostname);
  return async (input, init) => {
    const url = String(input);
    const checked = parseSecureUrl(url);
    if (checked.problem !== null) {
      throw new Error(
        `refusing the OAuth request to ${url}: it must be https (plain http only to this machine), without credentials`,
      );
    }
    if (!serverInternal && isInternalHost(checked.url.hostname)) {
      throw new Error(
        `refusing the OAuth request to ${checked.url.origin}: an MCP server outside this network named an address inside it`,
      );
    }
    const timeout = AbortSignal.timeout(OAUTH_REQUEST_LIMITS.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = await fetch(input, { ...init, redirect: 'manual', signal });
      const body = await boundedBody(response, OAUTH_REQUEST_LIMITS.bodyBytes);
      return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (err) {
      if (timeout.aborted) {
        throw new Error(
          `${checked.url.origin} did not answer within ${OAUTH_REQUEST_LIMITS.timeoutMs / 1000} s`,
        );
      }
      throw err;
    }
  };
}
