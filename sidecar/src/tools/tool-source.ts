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
}

/** Several sources as one, their tools in the order the sources are given. */
export function combineToolSources(sources: ToolSource[]): ToolSource {
  return {
    async toolsForTurn(scope) {
      const tools: Tool[] = [];
      // In order, not at once: the first (built-in and kernel tools) are quick, and a kernel opened here
      // warms up while later sources (MCP servers) start.
      for (const source of sources) tools.push(...(await source.toolsForTurn(scope)));
      return tools;
    },
  };
}
