import { useEffect, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { type McpAttachment, parseMcpResultFile } from './mcp-attachments';
import { errorMessage } from './use-call-result';

export type AttachmentsState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'loaded'; attachments: McpAttachment[] }
  | { state: 'error'; message: string };

/** An MCP call's saved images and resources, fetched with the token when the card shows a call that has them. */
export function useMcpAttachments(client: CairnClient, toolCallId: string | null, wanted: boolean) {
  const [state, setState] = useState<AttachmentsState>({ state: 'none' });
  useEffect(() => {
    if (!wanted || !toolCallId) return;
    let alive = true;
    setState({ state: 'loading' });
    client
      .mcpResultBlob(toolCallId)
      .then((blob) => blob.text())
      .then(
        (text) => {
          if (alive) setState({ state: 'loaded', attachments: parseMcpResultFile(text) });
        },
        (error: unknown) => {
          if (alive) setState({ state: 'error', message: errorMessage(error) });
        },
      );
    return () => {
      alive = false;
    };
  }, [client, toolCallId, wanted]);
  return state;
}
