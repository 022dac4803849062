import { describe, expect, it } from 'vitest';
import { APP_ORIGIN as SIDECAR_APP_ORIGIN } from '../../sidecar/src/protocol/host';
import { APP_ORIGIN } from '../src/app-origin';
import {
  decideNavigation,
  decideRedirect,
  decideSubframeNavigation,
  decideWindowOpen,
  externalUrlToOpen,
  isAppUrl,
  loginUrlToOpen,
} from '../src/navigation-policy';

const LONG = `https://example.com/${'a'.repeat(9000)}`;

// [url, isAppUrl, externalUrlToOpen]
const TABLE: [string, boolean, string | null][] = [
  ['app://cairn/', true, null],
  ['app://cairn/index.html', true, null],
  ['app://cairn/sessions/abc?x=1#y', true, null],
  ['app://cairn', true, null],
  ['app://cairn.evil.com/', false, null],
  ['app://cairn@evil.com/', false, null],
  ['app://evil.com@cairn/', false, null],
  ['app://user:pass@cairn/', false, null],
  ['app://cairn:8080/', false, null],
  ['app://evil/', false, null],
  ['app://CAIRN/', false, null],
  ['app:cairn/', false, null],
  ['apps://cairn/', false, null],
  ['https://cairn/', false, 'https://cairn/'],
  ['https://app.example.com.evil.com', false, 'https://app.example.com.evil.com/'],
  ['https://example.com/docs?q=1#part', false, 'https://example.com/docs?q=1#part'],
  ['http://example.com', false, 'http://example.com/'],
  ['HTTPS://EXAMPLE.com/a b', false, 'https://example.com/a%20b'],
  ['https://xn--80ak6aa92e.com/', false, 'https://xn--80ak6aa92e.com/'],
  ['http://user:pass@x.com', false, null],
  ['https://user@x.com/', false, null],
  ['javascript:alert(1)', false, null],
  ['JaVaScRiPt:alert(1)', false, null],
  ['file:///etc/passwd', false, null],
  ['file://server/share', false, null],
  ['data:text/html,<script>alert(1)</script>', false, null],
  ['blob:app://cairn/1234', false, null],
  ['blob:https://example.com/1234', false, null],
  ['chrome://settings', false, null],
  ['devtools://devtools/bundled/inspector.html', false, null],
  ['about:blank', false, null],
  ['mailto:a@example.com', false, null],
  ['ftp://example.com/', false, null],
  ['ws://127.0.0.1:8765/api/ws', false, null],
  ['http:///nohost', false, 'http://nohost/'],
  ['https://', false, null],
  ['/relative/path', false, null],
  ['../../etc/passwd', false, null],
  ['not a url at all', false, null],
  ['', false, null],
  [LONG, false, null],
];

describe('navigation policy', () => {
  it.each(TABLE)('%s: app %s, external %s', (url, app, external) => {
    expect(isAppUrl(url)).toBe(app);
    expect(externalUrlToOpen(url)).toBe(external);
  });

  it.each(TABLE)(
    'will-navigate to %s stays in the app only for app://cairn, sends web links out',
    (url, app, external) => {
      expect(decideNavigation(url)).toEqual({ allow: app, openExternal: app ? null : external });
    },
  );

  it.each(TABLE)('window.open(%s) is always refused; web links go to the browser', (url, _app, external) => {
    expect(decideWindowOpen(url)).toEqual({ allow: false, openExternal: external });
  });

  it.each(TABLE)('a redirect or subframe navigation to %s never opens anything', (url, app) => {
    expect(decideRedirect(url)).toEqual({ allow: app, openExternal: null });
    expect(decideSubframeNavigation(url)).toEqual({ allow: app, openExternal: null });
  });

  it("lets a subframe show its own srcdoc (a code cell's sandboxed HTML output), nothing like it", () => {
    expect(decideSubframeNavigation('about:srcdoc')).toEqual({ allow: true, openExternal: null });
    expect(decideSubframeNavigation('about:srcdoc#total').allow).toBe(true);
    for (const url of [
      'about:srcdoc?x',
      'about:srcdocx',
      'ABOUT:SRCDOC',
      'about:blank',
      'https://a.example/#about:srcdoc',
    ]) {
      expect(decideSubframeNavigation(url).allow).toBe(false);
    }
    expect(decideNavigation('about:srcdoc').allow).toBe(false);
  });

  it('does not throw on values that are not strings', () => {
    expect(isAppUrl(undefined as unknown as string)).toBe(false);
    expect(externalUrlToOpen(null as unknown as string)).toBeNull();
  });
});

describe('the app origin', () => {
  it('is the one the sidecar allows (the preload cannot import the protocol, so the two are held equal here)', () => {
    expect(APP_ORIGIN).toBe(SIDECAR_APP_ORIGIN);
  });
});

// [url, loginUrlToOpen]
const LOGIN_TABLE: [string, string | null][] = [
  [
    'https://auth.example.com/authorize?client_id=c&state=s',
    'https://auth.example.com/authorize?client_id=c&state=s',
  ],
  ['HTTPS://Auth.Example.com/a b', 'https://auth.example.com/a%20b'],
  ['https://127.0.0.1:8443/authorize', 'https://127.0.0.1:8443/authorize'],
  ['http://127.0.0.1:4100/authorize?x=1', 'http://127.0.0.1:4100/authorize?x=1'],
  ['http://localhost:4100/authorize', 'http://localhost:4100/authorize'],
  ['http://LOCALHOST/authorize', 'http://localhost/authorize'],
  ['http://[::1]:4100/authorize', 'http://[::1]:4100/authorize'],
  ['http://auth.example.com/authorize', null],
  ['http://127.0.0.2/authorize', null],
  ['http://localhost.evil.com/authorize', null],
  ['http://127.0.0.1.evil.com/authorize', null],
  ['http://10.0.0.5/authorize', null],
  ['http://[::2]/authorize', null],
  ['https://user:pass@auth.example.com/', null],
  ['https://user@auth.example.com/', null],
  ['http://user@127.0.0.1/authorize', null],
  ['javascript:alert(1)', null],
  ['file:///etc/passwd', null],
  ['data:text/html,<script>alert(1)</script>', null],
  ['app://cairn/', null],
  ['ftp://auth.example.com/', null],
  ['mailto:a@example.com', null],
  ['https://', null],
  ['', null],
  [LONG, null],
];

describe('login page policy', () => {
  it.each(LOGIN_TABLE)('%s opens as %s', (url, expected) => {
    expect(loginUrlToOpen(url)).toBe(expected);
  });

  it('does not throw on values that are not strings', () => {
    expect(loginUrlToOpen(undefined as unknown as string)).toBeNull();
    expect(loginUrlToOpen({ toString: () => 'https://a.example/' } as unknown as string)).toBeNull();
  });
});
