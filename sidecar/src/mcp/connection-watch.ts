import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  type Progress,
  ProgressNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger';
import { describe } from './describe-error';
import { HTTP_RECONNECT_ATTEMPTS } from './http-transport';
import type { StdioTransport } from './stdio-transport';

/** What the transport's watch tells its connection. */
export interface WatchedConnection {
  /** A tools/call for `tool` goes out with `id` (the SDK picks ids): the call waiting for one gets it. */
  idSent(tool: unknown, id: string | number): void;
  /** A progress notification for the call whose request id is `token`. */
  progressOf(token: string | number, params: Progress): void;
  /** Lost while connected, `why` in words; `shutdown`: what is left of the connection is ended too. */
  lost(why: string, shutdown: boolean): void;
  connected(): boolean;
  /** The endpoint, for HTTP servers. */
  url: string | null;
  log: Logger;
}

/**
 * Watches a connection's transport: ids of outgoing calls, progress as it comes (before the SDK, which hands
 * it on only after a call's answer arriving with it), and the connection's loss (a process that ended, an
 * HTTP stream that did not come back).
 */
export function watchTransport(
  transport: Transport,
  stdio: StdioTransport | null,
  conn: WatchedConnection,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      conn.idSent(message.params?.name, message.id);
    }
    return send(message, options);
  };
  // Runs before the SDK's own handler (which calls it first), in the order messages come.
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message) return;
    const parsed = ProgressNotificationSchema.safeParse(message);
    if (parsed.success) conn.progressOf(parsed.data.params.progressToken, parsed.data.params);
  };
  transport.onclose = () => {
    if (!conn.connected()) return;
    const why = stdio?.fatal ?? 'the connection closed';
    const tail = stdio?.stderr.trim().slice(-1_000);
    const crashed = `${why}; its tools are unavailable until it is started again at the session's next message${tail ? `. Its last output on stderr:\n${tail}` : ''}`;
    conn.log.warn('mcp server crashed', { error: crashed });
    conn.lost(crashed, false);
  };
  transport.onerror = (err) => {
    conn.log.debug('mcp transport error', { error: err.message });
    // The SDK reports a lost HTTP stream this way once its bounded reconnection has given up.
    if (!stdio && /Maximum reconnection attempts/.test(err.message) && conn.connected()) {
      conn.lost(
        `the connection to ${conn.url ?? 'the server'} was lost and did not come back after ${HTTP_RECONNECT_ATTEMPTS} attempts; its tools are unavailable until it is started again at the session's next message`,
        true,
      );
    }
  };
}

/** Why a server did not finish starting, in words: its process's own account first. */
export function startFailure(err: unknown, stdio: StdioTransport | null, deadline: AbortSignal): string {
  if (stdio?.fatal) {
    return stdio.exit && !/not MCP/.test(stdio.fatal)
      ? `${stdio.fatal} before it finished starting`
      : stdio.fatal;
  }
  if (deadline.aborted) return describe(deadline.reason);
  return describe(err);
}
