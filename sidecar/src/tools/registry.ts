import { builtinTools, kernelTools } from './builtin';
import type { KernelToolService } from './kernel-service';
import type { Tool } from './tool';

export interface ToolScope {
  hasProject: boolean;
  /** Conversation-only deployments load no shell, file, kernel or MCP tools. */
  conversationOnly: boolean;
  /** The session's Python kernels, where this deployment has them. */
  kernels?: KernelToolService | null;
}

/** Decides which tools a session gets. */
export function toolsForSession(scope: ToolScope): Tool[] {
  const tools = scope.kernels ? [...builtinTools(), ...kernelTools(scope.kernels)] : builtinTools();
  return tools.filter((tool) => !tool.needsProject || (scope.hasProject && !scope.conversationOnly));
}
