import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type OAuthFetchHooks, oauthFetch } from './oauth/oauth-fetch';
import type { ServerOAuth } from './oauth/server-oauth';

/** A dropped SSE stream is re-opened this many times, with backoff, before the connection counts as lost. */
export const HTTP_RECONNECT_ATTEMPTS = 3;

export interface HttpHooks {
  /** A request's response failed in transit (too large, or the connection dropped): fail that call now. */
  onRequestFailed(id: string | number, message: string): void;
}

function requestId(body: unknown): string | number | null {
  if (typeof body !== 'string') return null;
  try {
    const msg = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
  } catch {
    return null;
  }
}

/**
 * A body that fails its request (by id) when it grows past `maxBytes` or breaks off, so a call in flight fails
 * at once instead of waiting for its timeout or being resumed.
 */
function guardBody(
  body: ReadableStream<Uint8Array>,
  id: string | number,
  maxBytes: number,
  hooks: HttpHooks,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        const message = `the connection to the server dropped during the call (${(err as Error).message}); it was not retried`;
        hooks.onRequestFailed(id, message);
        controller.error(new Error(message));
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      total += chunk.value.byteLength;
      if (total > maxBytes) {
        const message = `the server's response is over the ${maxBytes / 1024 / 1024} MiB limit for one result`;
        hooks.onRequestFailed(id, message);
        void reader.cancel().catch(() => {});
        controller.error(new Error(message));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A server-sent event stream whose single events may not grow past `maxBytes` (the stream then ends). */
function guardEvents(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let sinceBoundary = 0;
  let previous = 0; // the last byte seen, for a blank line split across chunks
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const byte of chunk) {
          sinceBoundary = byte === 0x0a && previous === 0x0a ? 0 : sinceBoundary + 1;
          if (byte !== 0x0d) previous = byte;
        }
        if (sinceBoundary > maxBytes) {
          controller.error(
            new Error(`the server sent an event over the ${maxBytes / 1024 / 1024} MiB limit`),
          );
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * fetch for the transport: never follows a redirect (a 3xx could send headers and tokens elsewhere), and
 * guards POST response bodies, which carry one request's answer.
 */
export function guardedFetch(endpoint: URL, maxBytes: number, hooks: HttpHooks): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, { ...init, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      const to = response.headers.get('location');
      throw new Error(
        `the server at ${endpoint.origin} answered with a redirect (HTTP ${response.status}${to ? ` to ${to}` : ''}); redirects are not followed — put the final URL in the server's settings`,
      );
    }
    if (!response.body) return response;
    const id = init?.method === 'POST' ? requestId(init.body) : null;
    // The long-lived GET stream carries many messages: bound each event instead of the whole stream.
    const body =
      id === null ? guardEvents(response.body, maxBytes) : guardBody(response.body, id, maxBytes, hooks);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

export function createHttpTransport(
  endpoint: URL,
  headers: Record<string, string>,
  maxBytes: number,
  hooks: HttpHooks,
  /** The server's OAuth login (null: it takes its headers only). */
  login: { oauth: ServerOAuth; hooks: OAuthFetchHooks } | null,
): StreamableHTTPClientTransport {
  const guarded = guardedFetch(endpoint, maxBytes, hooks);
  return new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers },
    fetch: login ? oauthFetch(guarded, login.oauth, login.hooks) : guarded,
    reconnectionOptions: {
      maxRetries: HTTP_RECONNECT_ATTEMPTS,
      initialReconnectionDelay: 500,
      reconnectionDelayGrowFactor: 2,
      maxReconnectionDelay: 4_000,
    },
  });
}
