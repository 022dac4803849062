import type { CairnEvent } from '../../../sidecar/src/protocol';

/** An MCP server a running turn waits on until the user logs in to it. */
export interface McpLoginWait {
  serverId: string;
  name: string;
  /** Where the user logs in (from the server's latest event). */
  url: string;
}

/**
 * A turn's `mcp.server` event: a server in `auth_required` with a login page joins the servers the turn waits
 * on (its latest page kept). Any other event of it ends its wait: another state (connected, failed…), or
 * `auth_required` without a page, which the sidecar reports when a wait ends (timed out, denied), a login
 * fails or is finished elsewhere, or logins are refused here; the turn does not wait then.
 */
export function applyMcpLoginWait(
  waits: readonly McpLoginWait[],
  event: Extract<CairnEvent, { type: 'mcp.server' }>,
): readonly McpLoginWait[] {
  const others = waits.filter((w) => w.serverId !== event.server_id);
  if (event.state !== 'auth_required' || event.authorization_url === null)
    return others.length === waits.length ? waits : others;
  return [...others, { serverId: event.server_id, name: event.name, url: event.authorization_url }];
}
