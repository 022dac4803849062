import { useState } from 'react';
import type { Turn } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import type { McpLoginWait } from '../state/mcp-login-waits';
import { messageOf } from '../state/session-controller';
import { loginUrlToOpen, openLoginPage } from './mcp/open-login';

/** Failures that settings can fix: no key, or a key the provider refused. */
const SETTINGS_ERRORS = new Set(['model_no_key', 'model_auth']);

/** One server the running turn waits on: its name, and Log in opening its page (saying so if that fails). */
function McpLoginWaitRow({ wait }: { wait: McpLoginWait }) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const url = loginUrlToOpen(wait.url);
  const logIn = async (safe: string) => {
    setFailure(null);
    try {
      await openLoginPage(safe);
    } catch (error) {
      setFailure(messageOf(error));
    }
  };
  return (
    <div className="turn-status-row">
      <p className="turn-status-text">{t('conversation.status.mcpLogin', { name: wait.name })}</p>
      {url !== null && (
        <button type="button" className="conv-button" onClick={() => void logIn(url)}>
          {t('conversation.status.mcpLoginOpen')}
        </button>
      )}
      {failure !== null && (
        <p className="turn-status-text error-text" role="alert">
          {t('conversation.status.mcpLoginFailed', { message: failure })}
        </p>
      )}
    </div>
  );
}

/** How a turn ended when that needs saying: failed or interrupted (with Retry), or cancelled; or the MCP logins a running turn waits on. */
export function TurnStatusLine({
  turn,
  mcpLogins,
  onRetry,
  onOpenSettings,
}: {
  turn: Turn;
  /** MCP servers the running turn waits on for a login. */
  mcpLogins?: readonly McpLoginWait[];
  onRetry?: () => void;
  onOpenSettings?: () => void;
}) {
  const t = useT();
  if (turn.status === 'running' && mcpLogins && mcpLogins.length > 0) {
    return (
      <div className="turn-status turn-status--waiting" role="status">
        {mcpLogins.map((wait) => (
          <McpLoginWaitRow key={wait.serverId} wait={wait} />
        ))}
      </div>
    );
  }
  if (turn.status === 'cancelled') {
    return <p className="turn-status turn-status--cancelled">{t('conversation.status.cancelled')}</p>;
  }
  if (turn.status !== 'failed' && turn.status !== 'interrupted') return null;

  let text: string;
  if (turn.status === 'interrupted') text = t('conversation.status.interrupted');
  else if (turn.error?.message) text = t('conversation.status.failed', { message: turn.error.message });
  else text = t('conversation.status.failedUnknown');

  return (
    <div className={`turn-status turn-status--${turn.status}`}>
      <span className="turn-status-icon" aria-hidden="true">
        {turn.status === 'failed' ? '!' : '⏸'}
      </span>
      <p className="turn-status-text">{text}</p>
      {onOpenSettings && turn.error && SETTINGS_ERRORS.has(turn.error.code) && (
        <button type="button" className="conv-button" onClick={onOpenSettings}>
          {t('conversation.openSettings')}
        </button>
      )}
      {onRetry && (
        <button type="button" className="conv-button" onClick={onRetry}>
          {t('conversation.retry')}
        </button>
      )}
    </div>
  );
}
