import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { LoginPageLink } from './LoginPageLink';
import { type LoginOpener, loginUrlToOpen, openLoginPage } from './open-login';
import '../../i18n/messages/mcp';

type State =
  | { kind: 'idle' | 'busy' | 'refused' }
  | { kind: 'opened'; url: string }
  | { kind: 'error'; message: string };

/**
 * A session's server that waits for the user to log in: says so, and Log in asks the backend for the login
 * (the one waiting, or a new one) and opens its page. A URL known from before is not opened: that login may
 * have ended (timed out, denied, finished elsewhere), and its page would only say so.
 */
export function McpSessionLogin(props: {
  client: CairnClient;
  serverId: string;
  name: string;
  opener?: LoginOpener;
}) {
  const t = useT();
  const [state, setState] = useState<State>({ kind: 'idle' });

  const open = async (url: string) => {
    try {
      setState((await openLoginPage(url, props.opener)) ? { kind: 'opened', url } : { kind: 'refused' });
    } catch (error) {
      setState({ kind: 'error', message: messageOf(error) });
    }
  };

  const logIn = async () => {
    setState({ kind: 'busy' });
    let url: string;
    try {
      url = (await props.client.authorizeMcpServer(props.serverId)).authorization_url;
    } catch (error) {
      setState({ kind: 'error', message: messageOf(error) });
      return;
    }
    await open(url);
  };

  // The page just opened, as a link too: a browser may block a tab opened after an await.
  const link = state.kind === 'opened' ? loginUrlToOpen(state.url) : null;

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
        {link !== null && (
          <>
            {' '}
            <LoginPageLink url={link} onOpen={(url) => void open(url)} />
          </>
        )}
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
