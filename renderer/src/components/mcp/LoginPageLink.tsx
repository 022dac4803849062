import { useT } from '../../i18n/i18n';
import '../../i18n/messages/mcp';

/**
 * "Open the login page" as a link, for when the browser blocked the tab opened after a request. `url` has
 * passed loginUrlToOpen; a click opens it the same way as Log in (the desktop app's host, or a new tab).
 */
export function LoginPageLink(props: { url: string; onOpen(url: string): void }) {
  const t = useT();
  return (
    <a
      href={props.url}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(event) => {
        event.preventDefault();
        props.onOpen(props.url);
      }}
    >
      {t('mcp.login.openLink')}
    </a>
  );
}
