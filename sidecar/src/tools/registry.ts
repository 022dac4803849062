import { builtinTools } from './builtin';
import type { Tool } from './tool';

export interface ToolScope {
  hasProject: boolean;
  /** Conversation-only deployments load no shell, file, kernel or MCP tools. */
  conversationOnly: boolean;
}

/** Decides which tools a session gets. */
export function toolsForSession(scope: ToolScope): Tool[] {
  return builtinTools().filter((tool) => !tool.needsProject || (scope.hasProject && !scope.conversationOnly));
}
