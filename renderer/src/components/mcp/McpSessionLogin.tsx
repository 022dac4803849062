import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { type LoginOpener, openLoginPage } from './open-login';
import '../../i18n/messages/mcp';

type State = { kind: 'idle' | 'busy' | 'opened' | 'refused' } | { kind: 'error'; message: string };

/**
 * A session's server that waits for the user to log in: says so, and Log in opens the login page the
 * session is waiting on (from the session's status or its latest `mcp.server` event); without one known
 * yet, it starts a login for the server.
 */
export function McpSessionLogin(props: {
  client: CairnClient;
  serverId: string;
  name: string;
  authorizationUrl: string | null;
  opener?: LoginOpener;
}) {
  const t = useT();
  const [state, setState] = useState<State>({ kind: 'idle' });

  const logIn = async () => {
    setState({ kind: 'busy' });
    try {
      const url =
        props.authorizationUrl ?? (await props.client.authorizeMcpServer(props.serverId)).authorization_url;
      setState({ kind: (await openLoginPage(url, props.opener)) ? 'opened' : 'refused' });
    } catch (error) {
      setState({ kind: 'error', message: messageOf(error) });
    }
  };

  return (
    <div className="mcp-session-login" data-testid="mcp-session-login">
      <span>{t('mcp.session.waitsLogin', { name: props.name })}</span>
      <button
        type="button"
        className="small-button"
        disabled={state.kind === 'busy'}
        onClick={() => void logIn()}
      >
        {t('mcp.login.login')}
      </button>
      <span aria-live="polite">
        {state.kind === 'opened' && <span className="muted">{t('mcp.login.opened')}</span>}
        {state.kind === 'refused' && (
          <span className="error-text" role="alert">
            {t('mcp.login.refusedUrl')}
          </span>
        )}
        {state.kind === 'error' && (
          <span className="error-text" role="alert">
            {t('mcp.login.error', { message: state.message })}
          </span>
        )}
      </span>
    </div>
  );
}
