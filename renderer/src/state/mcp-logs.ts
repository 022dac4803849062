import type { CairnEvent, McpLogLevel } from '../../../sidecar/src/protocol';

/** One log line of a server as the session's MCP panel shows it: plain text, never markup. */
export interface McpLogLine {
  seq: number;
  level: McpLogLevel;
  text: string;
  time: string;
}

/** The lines kept per server, newest last: the panel shows recent ones, not a history. */
export const MAX_LOG_LINES = 50;
/** A line's text beyond this is cut (the sidecar bounds data already; this bounds the layout). */
export const MAX_LOG_TEXT = 2_000;

/** Each server's recent log lines, by server id. */
export type McpLogs = Readonly<Record<string, readonly McpLogLine[]>>;

/** A log message's data as text: a string as it is, anything else as JSON. */
export function logText(data: unknown): string {
  const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  return text.length > MAX_LOG_TEXT ? `${text.slice(0, MAX_LOG_TEXT)}…` : text;
}

/**
 * Adds an `mcp.log` event's line to its server's, in journal order (the history read when the panel opens
 * may come after live lines), oldest dropped past MAX_LOG_LINES; other events change nothing.
 */
export function applyMcpLog(logs: McpLogs, event: CairnEvent): McpLogs {
  if (event.type !== 'mcp.log') return logs;
  const lines = logs[event.server_id] ?? [];
  if (lines.some((l) => l.seq === event.seq)) return logs;
  const line: McpLogLine = {
    seq: event.seq,
    level: event.level,
    text: logText(event.data),
    time: event.time,
  };
  const ordered = [...lines, line].sort((a, b) => a.seq - b.seq);
  return { ...logs, [event.server_id]: ordered.slice(-MAX_LOG_LINES) };
}
