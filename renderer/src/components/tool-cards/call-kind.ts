/** Which card a tool call gets: one kind per family of tools that show alike. */
export type CallKind = 'shell' | 'code' | 'edit' | 'write' | 'read' | 'list' | 'mcp' | 'question' | 'generic';

const KINDS: Record<string, CallKind> = {
  Bash: 'shell',
  Exec: 'shell',
  execute_code: 'code',
  Edit: 'edit',
  Write: 'write',
  Read: 'read',
  Glob: 'list',
  Grep: 'list',
  AskUserQuestion: 'question',
};

const MCP_PREFIX = 'mcp__';

export function callKind(name: string): CallKind {
  if (mcpNames(name)) return 'mcp';
  return KINDS[name] ?? 'generic';
}

/**
 * An MCP tool's server and tool from its agent name `mcp__<server>__<tool>` (the names as the agent knows
 * them: characters the API refuses are replaced, and a long name ends with a short hash).
 */
export function mcpNames(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf('__');
  if (split <= 0 || split + 2 >= rest.length) return null;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}
