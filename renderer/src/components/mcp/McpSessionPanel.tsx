import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { CairnEvent, McpSessionStatus } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { applyMcpLog, type McpLogs } from '../../state/mcp-logs';
import type { EventSource } from '../../state/session-controller';
import { McpServerLogs } from './McpServerLogs';
import { McpSessionLogin } from './McpSessionLogin';
import '../../i18n/messages/mcp';

/** Pages of the journal's `mcp.log` events: each panel shows its servers' latest from them. */
const LOG_PAGE = 1_000;

async function readLogHistory(
  client: CairnClient,
  sessionId: string,
  /** Takes a page; false stops the reading (the panel closed). */
  add: (events: CairnEvent[]) => boolean,
): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await client.sessionEvents(sessionId, after, LOG_PAGE, 'mcp.log');
    if (!add(page.events)) return;
    if (!page.has_more || page.events.length === 0) return;
    after = page.events.at(-1)!.seq;
  }
}

/**
 * The session's MCP servers and their tools, with each connection's state. Read when the panel opens and
 * again when a turn starts or ends (that is when connections are made and when a reset takes effect) or a
 * server's state or tool list changes (`mcp.server`). The log lines servers send (`mcp.log`) show under
 * each server, the recent ones only: those already in the journal, read when it opens, then live ones.
 */
export function McpSessionPanel(props: { client: CairnClient; source: EventSource; sessionId: string }) {
  const { client, source, sessionId } = props;
  const t = useT();
  const [status, setStatus] = useState<McpSessionStatus | null>(null);
  const [logs, setLogs] = useState<McpLogs>({});
  const [hidden, setHidden] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const alive = useRef(true);
  // Closed while empty; opened once when servers first appear, then as the user leaves it.
  const [open, setOpen] = useState(false);
  const autoOpened = useRef(false);

  const load = useCallback(async () => {
    try {
      const next = await client.sessionMcp(sessionId);
      if (!alive.current) return;
      setStatus(next);
      setError(null);
    } catch (e) {
      if (!alive.current) return;
      if (e instanceof ApiError && e.code === 'conversation_only') setHidden(true);
      else setError(e instanceof Error ? e.message : String(e));
    }
  }, [client, sessionId]);

  useEffect(() => {
    alive.current = true;
    void load();
    const off = source.listen((event) => {
      if (event.type.startsWith('turn.') || event.type === 'mcp.server') void load();
      else if (event.type === 'mcp.log') setLogs((current) => applyMcpLog(current, event));
    });
    // Read after listening, so no line falls between; a line read twice is kept once (by its seq).
    readLogHistory(client, sessionId, (events) => {
      if (!alive.current) return false;
      setLogs((current) => events.reduce(applyMcpLog, current));
      return true;
    }).catch(() => {
      // The live lines still show; the history is a convenience.
    });
    return () => {
      alive.current = false;
      off();
    };
  }, [load, source, client, sessionId]);

  const reset = async () => {
    setResetting(true);
    setError(null);
    try {
      const next = await client.resetSessionMcp(sessionId);
      if (alive.current) setStatus(next);
    } catch (e) {
      if (alive.current) setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (alive.current) setResetting(false);
    }
  };

  const servers = status?.servers ?? [];
  useEffect(() => {
    if (autoOpened.current || servers.length === 0) return;
    autoOpened.current = true;
    setOpen(true);
  }, [servers.length]);

  if (hidden) return null;
  return (
    <details className="panel-section mcp-panel" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <h2>{t('mcp.session.title')}</h2>
        {status && (
          <span className="muted mcp-panel-count">
            {t('mcp.session.count', { count: String(servers.length) })}
          </span>
        )}
      </summary>
      <section className="mcp-panel-body" aria-label={t('mcp.session.title')}>
        <p className="muted mcp-panel-note">
          {status?.snapshot_at === null ? t('mcp.session.noSnapshot') : t('mcp.session.snapshot')}
        </p>
        {status?.reset_pending && (
          <p className="mcp-panel-pending" role="status" data-testid="mcp-reset-pending">
            {t('mcp.session.pending')}
          </p>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {status && servers.length === 0 && <p className="muted">{t('mcp.session.empty')}</p>}
        <ul className="mcp-session-servers">
          {servers.map((server) => (
            <li key={server.server_id} className="mcp-session-server" aria-label={server.name}>
              <div className="mcp-session-server-head">
                <span className="mcp-session-name">{server.name}</span>
                <span className={`mcp-state mcp-state-${server.state}`} data-testid="mcp-state">
                  {t(`mcp.state.${server.state}`)}
                </span>
              </div>
              {server.state === 'auth_required' && (
                <McpSessionLogin client={client} serverId={server.server_id} name={server.name} />
              )}
              {server.error && (
                <p className="error-text mcp-session-error" data-testid="mcp-session-error">
                  {server.error}
                </p>
              )}
              <McpServerLogs name={server.name} lines={logs[server.server_id] ?? []} />
              {server.tools.length > 0 && (
                <ul className="mcp-session-tools" aria-label={t('mcp.session.tools', { name: server.name })}>
                  {server.tools.map((tool) => (
                    <li
                      key={tool.agent_name}
                      className={tool.available ? 'mcp-session-tool' : 'mcp-session-tool mcp-unavailable'}
                      title={tool.description ?? undefined}
                    >
                      <span className="mono">{tool.agent_name}</span>
                      <span className="muted" aria-hidden="true">
                        {' ↔ '}
                      </span>
                      <span className="mono muted" title={t('mcp.session.original', { name: tool.name })}>
                        {tool.name}
                      </span>
                      {!tool.available && <span className="muted"> · {t('mcp.session.unavailable')}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
        <div className="mcp-panel-actions">
          <button
            type="button"
            className="small-button"
            disabled={resetting}
            onClick={() => void reset()}
            aria-describedby="mcp-reset-hint"
          >
            {t('mcp.session.reset')}
          </button>
          <p id="mcp-reset-hint" className="muted mcp-panel-note">
            {t('mcp.session.resetHint')}
          </p>
        </div>
      </section>
    </details>
  );
}
