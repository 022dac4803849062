import type { HostLog, HostWindow } from './host-adapter';
import {
  decideNavigation,
  decideRedirect,
  decideSubframeNavigation,
  decideWindowOpen,
  type NavigationDecision,
} from './navigation-policy';
import { isPermissionAllowed } from './permission-policy';

/**
 * Wires the navigation, window-open, webview and permission policies onto a window: the page can
 * show only app://cairn, web links go to the system browser, and nothing can open a second window,
 * embed a <webview> or obtain a permission beyond writing the clipboard.
 */
export function guardWindow(
  window: HostWindow,
  openExternal: (url: string) => Promise<void>,
  log: HostLog,
): void {
  const apply = (
    decision: NavigationDecision,
    event: { preventDefault(): void },
    what: string,
    url: string,
  ) => {
    if (!decision.allow) event.preventDefault();
    if (!decision.allow && !decision.openExternal) log.warn(`Refused ${what} to ${describe(url)}.`);
    if (decision.openExternal) {
      openExternal(decision.openExternal).catch((error: unknown) =>
        log.error(`Could not open ${describe(decision.openExternal ?? '')} in the browser: ${String(error)}`),
      );
    }
  };

  window.onWillNavigate((event) => apply(decideNavigation(event.url), event, 'a navigation', event.url));
  window.onWillFrameNavigate((event) => {
    // The main frame's navigations arrive through will-navigate as well; decide them once.
    if (event.isMainFrame) return;
    apply(decideSubframeNavigation(event.url), event, 'a frame navigation', event.url);
  });
  window.onWillRedirect((event) => apply(decideRedirect(event.url), event, 'a redirect', event.url));
  window.setWindowOpenHandler((url) => {
    apply(decideWindowOpen(url), { preventDefault: () => undefined }, 'a new window', url);
    return { action: 'deny' };
  });
  window.onWillAttachWebview((event) => {
    event.preventDefault();
    log.warn('Refused to attach a <webview>.');
  });
  window.setPermissionHandler(isPermissionAllowed);
}

/** A URL for a log line: scheme and host only, since paths and queries may carry anything. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : `a ${parsed.protocol} URL`;
  } catch {
    return 'an unparsable URL';
  }
}
