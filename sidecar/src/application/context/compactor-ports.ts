import type { CompactorPorts } from '../../context/compactor';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../../tools/tool-call-files';

/** Where compaction finds a tool result in full and saves a long text block: the store and the call files. */
export function compactorPorts(store: Store, files: ToolCallFiles): Omit<CompactorPorts, 'kernelVariables'> {
  return {
    store,
    resultFile: (sessionId, toolUseId) => store.toolCalls.resultFile(sessionId, toolUseId),
    saveBlock: (sessionId, messageId, index, text) =>
      files.writeCompactedBlock(sessionId, messageId, index, text),
  };
}
