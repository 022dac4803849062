// What a browser does with the authorization URL Cairn hands the user: open it and follow each redirect
// (the test authorization server "clicks Allow" at once) until a page answers, which is Cairn's callback.
// Loopback only: tests never reach the network.

export interface LoginResult {
  status: number;
  body: string;
  /** The URL of the last response (the one that did not redirect). */
  url: string;
  /** Every URL requested, in order (the first is the authorization URL). */
  hops: string[];
}

const MAX_HOPS = 10;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function checkLoopback(url: URL): void {
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
    throw new Error(
      `followLogin only follows http:// URLs on 127.0.0.1 or localhost; it was sent to ${url.href}. ` +
        'A test that reaches this talks to something off the machine: point it at the local OAuth fixture.',
    );
  }
}

export async function followLogin(authorizationUrl: string): Promise<LoginResult> {
  const hops: string[] = [];
  let url = new URL(authorizationUrl);
  for (;;) {
    checkLoopback(url);
    hops.push(url.href);
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || location === null) {
      return { status: res.status, body: await res.text(), url: url.href, hops };
    }
    await res.body?.cancel();
    if (hops.length >= MAX_HOPS) {
      throw new Error(
        `followLogin gave up after ${MAX_HOPS} redirects (last: ${url.href}); a redirect loop?`,
      );
    }
    url = new URL(location, url);
  }
}
