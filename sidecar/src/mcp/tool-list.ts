import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_LIMITS } from '../protocol/mcp';

export interface McpToolDef {
  name: string;
  description: string | null;
  inputSchema: Record<string, unknown>;
  allowed: boolean;
}

const MAX_LIST_PAGES = 64;

/** Whether the allow/deny lists let the agent have a tool: no allow-list means all, [] none, deny wins. */
export function toolAllowed(name: string, allow: string[] | null, deny: string[]): boolean {
  if (deny.includes(name)) return false;
  return allow === null || allow.includes(name);
}

/**
 * Every page of the server's tools/list, within the limits on count and catalog size, each tool marked with
 * whether the allow/deny lists let the agent have it: at connect, and again after `list_changed`.
 */
export async function listAllTools(
  client: Client,
  filters: { allowTools: string[] | null; denyTools: string[] },
  reqOpts: { signal: AbortSignal; timeout: number },
  signal: AbortSignal,
): Promise<McpToolDef[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const res = await Promise.race([
      client.listTools(cursor ? { cursor } : undefined, reqOpts),
      abortPromise(signal),
    ]);
    tools.push(...res.tools);
    if (tools.length > MCP_LIMITS.toolsPerServer) {
      throw new Error(
        `it lists more than ${MCP_LIMITS.toolsPerServer} tools, the limit per server; use a server with fewer tools`,
      );
    }
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  const bytes = Buffer.byteLength(JSON.stringify(tools));
  if (bytes > MCP_LIMITS.catalogBytes) {
    throw new Error(
      `its tool catalog is ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the ${MCP_LIMITS.catalogBytes / 1024 / 1024} MiB limit`,
    );
  }
  const { allowTools, denyTools } = filters;
  return tools.map((t) => ({
    name: t.name,
    description: t.description ?? null,
    inputSchema: t.inputSchema as Record<string, unknown>,
    allowed: toolAllowed(t.name, allowTools, denyTools),
  }));
}

export function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Waits without keeping the process alive (a connection's waits must not hold up an exit). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
