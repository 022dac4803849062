import type { Turn } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import type { McpLoginWait } from '../state/mcp-login-waits';
import { loginUrlToOpen, openLoginPage } from './mcp/open-login';

/** How a turn ended when that needs saying: failed or interrupted (with Retry), or cancelled. */
/** Failures that settings can fix: no key, or a key the provider refused. */
const SETTINGS_ERRORS = new Set(['model_no_key', 'model_auth']);

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
        {mcpLogins.map((wait) => {
          const url = wait.url === null ? null : loginUrlToOpen(wait.url);
          return (
            <div key={wait.serverId} className="turn-status-row">
              <p className="turn-status-text">{t('conversation.status.mcpLogin', { name: wait.name })}</p>
              {url !== null && (
                <button
                  type="button"
                  className="conv-button"
                  onClick={() => void openLoginPage(url).catch(() => undefined)}
                >
                  {t('conversation.status.mcpLoginOpen')}
                </button>
              )}
            </div>
          );
        })}
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
