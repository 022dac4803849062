import type { Tool } from './tool';

/** The turn a tool source is asked about. */
export interface ToolScope {
  sessionId: string;
  turnId: string;
  /** The project's folder (realpath), or null for a conversation without one. */
  projectRoot: string | null;
  /** Aborted when the turn is cancelled: a source still starting something stops. */
  signal: AbortSignal;
}

/**
 * The one port through which the agent loop gets its tools: built-in tools, a session's kernels, its MCP
 * servers (and later the tool runtime) each implement it; the composition root hands the loop their sum.
 */
export interface ToolSource {
  toolsForTurn(scope: ToolScope): Promise<Tool[]>;
  /**
   * The source's tools now, for a turn it gave tools to, when they changed since (an MCP server's
   * `list_changed`): the model's next request has these. Null or absent: those it gave at the turn's start.
   */
  currentTools?(scope: ToolScope): Tool[] | null;
}

/** Several sources as one, their tools in the order the sources are given. */
export function combineToolSources(sources: ToolSource[]): ToolSource {
  // What each source gave for a turn, kept with the turn's scope for as long as someone holds it.
  const given = new WeakMap<ToolScope, Tool[][]>();
  return {
    async toolsForTurn(scope) {
      const lists: Tool[][] = [];
      // In order, not at once: the first (built-in and kernel tools) are quick, and a kernel opened here
      // warms up while later sources (MCP servers) start.
      for (const source of sources) lists.push(await source.toolsForTurn(scope));
      given.set(scope, lists);
      return lists.flat();
    },
    currentTools(scope) {
      const lists = given.get(scope);
      if (!lists) return null;
      const now = sources.map((source) => source.currentTools?.(scope) ?? null);
      return now.some((list) => list !== null) ? now.flatMap((list, i) => list ?? lists[i]!) : null;
    },
  };
}
