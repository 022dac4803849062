import { builtinTools } from './builtin';
import type { ToolSource } from './tool-source';

/**
 * The built-in tools a session gets: shell and file tools only with a project folder, and none of them on
 * a conversation-only deployment.
 */
export function builtinToolSource(options: { conversationOnly: boolean }): ToolSource {
  return {
    async toolsForTurn(scope) {
      const withProject = scope.projectRoot !== null && !options.conversationOnly;
      return builtinTools().filter((tool) => !tool.needsProject || withProject);
    },
  };
}
