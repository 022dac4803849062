import { useEffect, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { McpServer } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { LoginPageLink } from '../mcp/LoginPageLink';
import { type LoginOpener, loginUrlToOpen, openLoginPage } from '../mcp/open-login';
import '../../i18n/messages/mcp';

type LoginState =
  | { kind: 'idle' }
  | { kind: 'busy'; what: 'login' | 'logout' }
  | { kind: 'opened'; url: string }
  /** Idle again: the login opened here ended without logging in (denied, timed out). */
  | { kind: 'unfinished' }
  | { kind: 'refused' }
  | { kind: 'error'; key: 'mcp.login.error' | 'mcp.login.logoutError'; message: string };

/**
 * Whether Cairn's OAuth login applies to a server: a Streamable HTTP server without credentials of its own (a
 * bearer token, or an Authorization header), for which the backend refuses a login.
 */
export function loginApplies(server: McpServer): boolean {
  return (
    server.transport === 'streamable_http' &&
    server.bearer_token === null &&
    !Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization')
  );
}

/**
 * A Streamable HTTP server's OAuth login in Settings: Log in (starts a login and opens its page), Log out,
 * the redirect URI to register with a client registered beforehand, and what this backend cannot do (no
 * logins without a public URL, tokens in memory only without a keychain).
 */
export function McpLoginStatus(props: {
  server: McpServer;
  client: CairnClient;
  /** The server's login state may have changed: read it again. */
  onChanged(): void;
  /** How a login page is opened (tests give their own). */
  opener?: LoginOpener;
}) {
  const t = useT();
  const { server, client, onChanged } = props;
  const [state, setState] = useState<LoginState>({ kind: 'idle' });

  // Back from the browser after a login: read the server again, so "logged in" shows without a reload.
  const waiting = state.kind === 'opened';
  // Whether the server was read again since the page opened: until then its authorization_url lags behind.
  const reread = useRef(false);
  useEffect(() => {
    if (!waiting) return;
    const onFocus = () => {
      reread.current = true;
      onChanged();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [waiting, onChanged]);

  // Logged in meanwhile: the page and its link have done their part. Read again with that login gone and
  // not logged in: it ended in the browser (denied, timed out), and its link would lead nowhere.
  // Keyed on the server object: each read gives a new one, also when nothing in it changed.
  useEffect(() => {
    if (server.logged_in) setState((s) => (s.kind === 'opened' ? { kind: 'idle' } : s));
    else if (reread.current)
      setState((s) =>
        s.kind === 'opened' && server.authorization_url !== s.url ? { kind: 'unfinished' } : s,
      );
  }, [server]);

  const open = async (url: string) => {
    reread.current = false;
    try {
      setState((await openLoginPage(url, props.opener)) ? { kind: 'opened', url } : { kind: 'refused' });
    } catch (error) {
      setState({ kind: 'error', key: 'mcp.login.error', message: messageOf(error) });
    }
  };

  const logIn = async () => {
    setState({ kind: 'busy', what: 'login' });
    let url: string;
    try {
      url = (await client.authorizeMcpServer(server.id)).authorization_url;
    } catch (error) {
      setState({ kind: 'error', key: 'mcp.login.error', message: messageOf(error) });
      return;
    }
    await open(url);
  };

  const logOut = async () => {
    setState({ kind: 'busy', what: 'logout' });
    try {
      await client.logoutMcpServer(server.id);
      setState({ kind: 'idle' });
      onChanged();
    } catch (error) {
      setState({ kind: 'error', key: 'mcp.login.logoutError', message: messageOf(error) });
    }
  };

  const refused = server.redirect_uri === null;
  const busy = state.kind === 'busy';
  // A login already waiting (started here or by a session): its page, offered as a link too, in case the
  // browser blocked the new tab.
  const pending = state.kind === 'opened' ? state.url : server.authorization_url;
  const pendingSafe = pending === null ? null : loginUrlToOpen(pending);

  return (
    <div className="mcp-login" data-testid="mcp-login">
      {refused ? (
        <div className="settings-notice" data-testid="mcp-login-refused">
          <p>{t('mcp.login.noRedirect')}</p>
        </div>
      ) : (
        <div className="settings-actions">
          {!server.logged_in && (
            <button type="button" className="settings-button" disabled={busy} onClick={() => void logIn()}>
              {state.kind === 'busy' && state.what === 'login'
                ? t('mcp.login.starting')
                : t('mcp.login.login')}
            </button>
          )}
          {server.logged_in && (
            <button type="button" className="settings-button" disabled={busy} onClick={() => void logOut()}>
              {state.kind === 'busy' && state.what === 'logout'
                ? t('mcp.login.loggingOut')
                : t('mcp.login.logout')}
            </button>
          )}
        </div>
      )}
      <div aria-live="polite">
        {state.kind === 'opened' && <p className="settings-hint">{t('mcp.login.opened')}</p>}
        {state.kind !== 'opened' && pending !== null && !refused && (
          <p className="settings-hint">{t('mcp.login.pending')}</p>
        )}
        {pendingSafe !== null && !refused && (
          <LoginPageLink url={pendingSafe} onOpen={(url) => void open(url)} />
        )}
        {(state.kind === 'refused' || (pending !== null && pendingSafe === null)) && (
          <p className="settings-field-error" role="alert">
            {t('mcp.login.refusedUrl')}
          </p>
        )}
        {state.kind === 'unfinished' && (
          <p className="settings-field-error" role="alert">
            {t('mcp.login.unfinished')}
          </p>
        )}
        {state.kind === 'error' && (
          <p className="settings-field-error" role="alert">
            {t(state.key, { message: state.message })}
          </p>
        )}
      </div>
      {server.redirect_uri !== null && server.oauth?.client_id && (
        <div className="mcp-login-redirect">
          <span className="mcp-label">{t('mcp.login.redirect')}</span>{' '}
          <code className="settings-mono settings-break" data-testid="mcp-redirect-uri">
            {server.redirect_uri}
          </code>
          <p className="settings-hint">{t('mcp.login.redirectHint')}</p>
        </div>
      )}
      {server.token_storage === 'memory' && (
        <div className="settings-notice" data-testid="mcp-login-memory">
          <p>{t('mcp.login.memory')}</p>
        </div>
      )}
    </div>
  );
}
