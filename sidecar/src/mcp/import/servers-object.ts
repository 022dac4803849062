import { McpConfigError } from '../mcp-config-error';
import { isObject } from './import-format';

/** The servers object under `key` (e.g. `mcpServers`), or a clear error naming what the file lacks. */
export function serversUnder(
  root: Record<string, unknown>,
  key: string,
  fileLabel: string,
  app: string,
): Record<string, unknown> {
  const servers = root[key];
  if (servers === undefined) {
    throw new McpConfigError(
      `${fileLabel} has no "${key}" object, so it is not ${app}'s MCP configuration (or it lists no servers). Choose the right file.`,
    );
  }
  if (!isObject(servers))
    throw new McpConfigError(`In ${fileLabel}, "${key}" should be an object of servers by name.`);
  return servers;
}
