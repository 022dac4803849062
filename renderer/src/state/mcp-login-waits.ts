import type { CairnEvent } from '../../../sidecar/src/protocol';

/** An MCP server a running turn waits on until the user logs in to it. */
export interface McpLoginWait {
  serverId: string;
  name: string;
  /** Where the user logs in (from the event; null when the server gave none yet). */
  url: string | null;
}

/**
 * A turn's `mcp.server` event: a server in `auth_required` joins the servers the turn waits on (its latest
 * login page kept), any other state of it (connected, failed…) ends its wait.
 */
export function applyMcpLoginWait(
  waits: readonly McpLoginWait[],
  event: Extract<CairnEvent, { type: 'mcp.server' }>,
): readonly McpLoginWait[] {
  const others = waits.filter((w) => w.serverId !== event.server_id);
  if (event.state !== 'auth_required') return others.length === waits.length ? waits : others;
  return [...others, { serverId: event.server_id, name: event.name, url: event.authorization_url }];
}
