import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import { downloadBlob } from '../download-blob';
import '../../i18n/messages/mcp';

const RESULT_FILE = 'mcp_result.json';

/** An MCP tool's call that saved images, audio or resources: its agent name and the note in its result. */
export function hasMcpResultFile(toolName: string, result: string | null): boolean {
  return toolName.startsWith('mcp__') && (result?.includes(RESULT_FILE) ?? false);
}

/**
 * "Download result files": fetches the call's mcp_result.json with the token in a header (never in a URL)
 * and saves it from memory, as the notebook export does.
 */
export function McpResultDownload({ client, toolCallId }: { client: CairnClient; toolCallId: string }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await client.mcpResultBlob(toolCallId);
      downloadBlob(blob, RESULT_FILE);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="conv-button" disabled={busy} onClick={() => void download()}>
        {t('mcp.download')}
      </button>
      {error && (
        <p className="tool-card-error" role="alert">
          {t('mcp.downloadError', { message: error })}
        </p>
      )}
    </>
  );
}
