/**
 * The fetch `cairn run --server` hands the client: it never follows a redirect (the next request would
 * carry the token wherever it points) and remembers the request it refused and where it pointed, and the
 * last request made, so the command line can say which request failed.
 */
export class RemoteFetch {
  /** The last request sent, as "METHOD /route". */
  last: string | null = null;
  /** Where the refused redirect pointed (scheme://host only: its path could hold anything). */
  redirectedTo: string | null = null;

  constructor(private readonly base: string) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    this.last = `${init?.method ?? 'GET'} ${url.startsWith(this.base) ? url.slice(this.base.length) : url}`;
    const response = await fetch(input, { ...init, redirect: 'manual' });
    if (response.type !== 'opaqueredirect' && (response.status < 300 || response.status >= 400))
      return response;
    await response.body?.cancel();
    this.redirectedTo = origin(response.headers.get('location'), this.base);
    // The client recognises a redirect by its cause, as it does Node's own "unexpected redirect".
    throw new TypeError('fetch failed', { cause: new Error('redirect refused') });
  };
}

function origin(location: string | null, base: string): string | null {
  if (!location) return null;
  try {
    return new URL(location, base).origin;
  } catch {
    return null;
  }
}
