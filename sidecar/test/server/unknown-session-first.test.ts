// A request under a session that does not exist is 404 not_found, whatever else is wrong with it (a
// malformed paging query, kernel name or body): a client holding a stale session id must learn that.
// Every route under /api/sessions/:id/ is tried, read from the server's own route table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/protocol';
import { SESSION_SCOPE } from '../../src/server/session-scope';
import { type Harness, startHarness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

// Invalid for every query schema under a session (turns' limit and before, events' after and type_prefix).
const BAD_QUERY = '?limit=abc&before=-1&after=x&type_prefix=%20';
const BAD_KERNEL_NAME = '-not a name';

const sessionRoutes = () => h.server.server.routes.filter((r) => r.url.startsWith(SESSION_SCOPE));
const path = (url: string, session: string) =>
  `${url.replace(':id', session).replace(':name', encodeURIComponent(BAD_KERNEL_NAME))}${BAD_QUERY}`;
const badBody = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : { nonsense: 1 });

describe('an unknown session under a malformed request', () => {
  it('is answered 404 not_found on every route under a session', async () => {
    const routes = sessionRoutes();
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/sessions/:id/turns', 'GET /api/sessions/:id/events']),
    );
    for (const { method, url } of routes) {
      const res = await h.api(method, path(url, 'ses_nope'), badBody(method));
      const what = `${method} ${url}: ${JSON.stringify(res.body)}`;
      // Soft: a failure names every route that answers otherwise, not just the first.
      expect.soft(res.status, what).toBe(404);
      expect.soft(ErrorResponse.parse(res.body).error.message, what).toMatch(/Session ses_nope/);
    }
  });

  it('is still 400 bad_request for a session that exists', async () => {
    const { sessionId } = await h.newSession();
    for (const url of ['/api/sessions/:id/turns', '/api/sessions/:id/events']) {
      const res = await h.api('GET', path(url, sessionId));
      expect(res.status, url).toBe(400);
      expect(ErrorResponse.parse(res.body).error.code, url).toBe('bad_request');
    }
  });
});
