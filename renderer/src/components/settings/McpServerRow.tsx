import { type ReactNode, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { McpServer, McpTestResult } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { serverTarget } from '../mcp/mcp-form';
import { loginApplies, McpLoginStatus } from './McpLoginStatus';
import { McpTestReport } from './McpTestReport';
import '../../i18n/messages/mcp';

type TestState =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'ok'; result: McpTestResult }
  | { kind: 'error'; message: string };

/** One MCP server in the list: its status, enable/disable, test, edit and delete. */
export function McpServerRow(props: {
  server: McpServer;
  client: CairnClient;
  busy: boolean;
  error: string | null;
  onToggle(enabled: boolean): void;
  onEdit(): void;
  onDelete(): void;
  /** The server may have changed (a login or logout): read the list again. */
  onChanged(): void;
}) {
  const t = useT();
  const { server, busy } = props;
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  // A server with its own credentials has no login here; of the others, "not logged in" is said only of one
  // known to use logins (OAuth settings, or a login waiting), Log in offered to all (one may need a first).
  const login = loginApplies(server);
  const badge = login && (server.logged_in || server.oauth !== null || server.authorization_url !== null);

  const runTest = async () => {
    setTest({ kind: 'testing' });
    try {
      setTest({ kind: 'ok', result: await props.client.testMcpServer(server.id) });
    } catch (error) {
      setTest({ kind: 'error', message: messageOf(error) });
    }
    // A test of a server that asks for a login starts one: read the server again to show it.
    props.onChanged();
  };

  return (
    <li className="model-item mcp-item" aria-label={server.name} data-mcp-server={server.id}>
      <div className="model-item-header">
        <h3 className="model-name">{server.name}</h3>
        <Badge good={server.enabled} testId="mcp-server-status">
          {server.enabled ? t('mcp.list.enabled') : t('mcp.list.disabled')}
        </Badge>
        <span className="settings-muted">{t(`mcp.transport.${server.transport}`)}</span>
        {badge && (
          <Badge good={server.logged_in} testId="mcp-login-badge">
            {server.logged_in ? t('mcp.login.loggedIn') : t('mcp.login.loggedOut')}
          </Badge>
        )}
      </div>
      <p className="settings-mono settings-break mcp-target">{serverTarget(server)}</p>
      {login && <McpLoginStatus server={server} client={props.client} onChanged={props.onChanged} />}
      <div className="settings-actions">
        <label className="mcp-check">
          <input
            type="checkbox"
            checked={server.enabled}
            disabled={busy}
            onChange={(e) => props.onToggle(e.target.checked)}
          />
          {t('mcp.list.enable')}
        </label>
        <button
          type="button"
          className="settings-button"
          disabled={test.kind === 'testing'}
          onClick={() => void runTest()}
        >
          {test.kind === 'testing' ? t('mcp.test.testing') : t('mcp.test.run')}
        </button>
        <button
          type="button"
          className="settings-button"
          disabled={busy}
          onClick={props.onEdit}
          data-edit-mcp={server.id}
        >
          {t('mcp.list.edit')}
        </button>
        <button
          type="button"
          className="settings-button settings-button-danger-quiet"
          disabled={busy}
          onClick={props.onDelete}
        >
          {t('mcp.list.delete')}
        </button>
      </div>
      {props.error && (
        <p className="settings-field-error" role="alert">
          {props.error}
        </p>
      )}
      <div aria-live="polite">
        {test.kind === 'ok' && <McpTestReport result={test.result} />}
        {test.kind === 'error' && (
          <p className="settings-field-error" role="alert" data-testid="mcp-test-error">
            {t('mcp.test.failed', { message: test.message })}
          </p>
        )}
      </div>
    </li>
  );
}

/** A state beside the server's name: green when it is the good one, muted otherwise. */
function Badge(props: { good: boolean; testId: string; children: ReactNode }) {
  return (
    <span
      className={props.good ? 'settings-badge settings-badge-success' : 'settings-badge mcp-badge-muted'}
      data-testid={props.testId}
    >
      {props.children}
    </span>
  );
}
