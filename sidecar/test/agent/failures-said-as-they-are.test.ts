// A failure is reported as what it is: a connection that dropped mid-answer as that (with what was kept),
// a failure inside Cairn (SQLite, a bug) as `internal` with the log's error id, never as a model failure;
// and every error body the server sends carries a code of the one closed set.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ErrorResponse, type TurnPage } from '../../src/protocol';
import { connectWs, type Harness, startHarness } from '../support/harness';

let h: Harness;
let sessionId: string;

beforeAll(async () => {
  h = await startHarness();
  ({ sessionId } = await h.newSession());
});
afterAll(async () => h?.close());

const db = () => h.server.core.store.db;
const log = () => fs.readFileSync(path.join(h.dataDir, 'logs', 'cairn.log'), 'utf8');

/** Runs `fn` while SQLite refuses rows of `table` (a temporary trigger on the sidecar's own connection). */
async function withFailingInserts<T>(
  table: string,
  when: string,
  fn: () => Promise<T>,
  message = 'disk I/O error (simulated)',
): Promise<T> {
  db().exec(
    `CREATE TEMP TRIGGER refuse_${table} BEFORE INSERT ON ${table} WHEN ${when} ` +
      `BEGIN SELECT RAISE(ABORT, '${message.replaceAll("'", "''")}'); END;`,
  );
  try {
    return await fn();
  } finally {
    db().exec(`DROP TRIGGER refuse_${table}`);
  }
}

describe('a model stream that breaks mid-answer', () => {
  it('says the connection dropped, keeps the partial text, and a next message continues from it', async () => {
    h.model.enqueue({ content: [{ type: 'text', text: 'The first half of the answer' }], drop: true });
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'explain')).id);
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('model_unreachable');
    expect(turn.error?.message).toMatch(/dropped during the answer/);
    expect(turn.error?.message).toMatch(/28 characters of the answer .* are kept in the history/);
    expect(turn.error?.message).not.toMatch(/The model request failed/);

    const page = (await h.api<TurnPage>('GET', `/api/sessions/${sessionId}/turns`)).body;
    const kept = page.turns.at(-1)!.messages.filter((m) => m.role === 'assistant');
    expect(kept.map((m) => m.content)).toEqual([[{ type: 'text', text: 'The first half of the answer' }]]);

    h.model.enqueue({ content: [{ type: 'text', text: ' and the second half.' }] });
    const next = await h.waitForTurnEnd((await h.startTurn(sessionId, 'continue')).id);
    expect(next.status).toBe('completed');
    const sent = JSON.stringify(h.model.requests.at(-1)!.body.messages);
    expect(sent).toContain('The first half of the answer');
  });
});

describe('a failure inside Cairn', () => {
  it('ends the turn as internal with the error id of its log entry, not as a model failure', async () => {
    h.model.enqueue({ content: [{ type: 'text', text: 'an answer Cairn cannot save' }] });
    const turn = await withFailingInserts('messages', "NEW.role = 'assistant'", async () =>
      h.waitForTurnEnd((await h.startTurn(sessionId, 'answer me')).id),
    );
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('internal');
    expect(turn.error?.message).toMatch(/inside Cairn .*disk I\/O error \(simulated\)/);
    expect(turn.error?.message).not.toMatch(/model/i);
    const id = /error id (err_[0-9a-f]+)/.exec(turn.error!.message)?.[1];
    expect(id).toBeDefined();
    expect(log()).toContain(`"error_id":"${id}"`);
    const failed = (await h.events(sessionId)).findLast((e) => e.type === 'turn.failed');
    expect(failed?.type === 'turn.failed' && failed.error.details).toEqual({ error_id: id });
  });

  it('answers a request with 500 internal and the error id in details', async () => {
    const res = await withFailingInserts('sessions', '1', () => h.api('POST', '/api/sessions', {}));
    expect(res.status).toBe(500);
    const body = ErrorResponse.parse(res.body);
    expect(body.error.code).toBe('internal');
    const id = body.error.details?.error_id;
    expect(typeof id).toBe('string');
    expect(body.error.message).toContain(String(id));
    expect(log()).toContain(`"error_id":"${id}"`);
  });

  it('says the failure without the credentials it quotes, in the answer and in the log', async () => {
    const quoted =
      'connect https://alice:hunter2-pass@db.example/x?api_key=AKIAQUERYKEY123 failed (Bearer eyJhbGciOi.p.s)';
    const res = await withFailingInserts('sessions', '1', () => h.api('POST', '/api/sessions', {}), quoted);
    expect(res.status).toBe(500);
    const body = ErrorResponse.parse(res.body);
    expect(body.error.code).toBe('internal');
    // Still recognisable: the user, host and parameter name stay.
    expect(body.error.message).toContain('https://alice:[REDACTED]@db.example/x?api_key=[REDACTED] failed');
    const id = String(body.error.details?.error_id);
    const entry = log()
      .split('\n')
      .find((l) => l.includes(`"error_id":"${id}"`));
    expect(entry).toContain('alice:[REDACTED]@db.example');
    for (const secret of ['hunter2-pass', 'AKIAQUERYKEY123', 'eyJhbGciOi.p.s']) {
      expect(body.error.message).not.toContain(secret);
      expect(entry).not.toContain(secret);
    }
  });
});

describe('every error body the server sends', () => {
  /** The code as sent, read strictly: a code outside the closed set fails here (the client would read internal). */
  const strictCode = (body: unknown) => ErrorCode.parse((body as { error: { code: unknown } }).error.code);

  it('carries a code of the closed set, whatever refused the request', async () => {
    const url = h.server.url;
    const auth = { authorization: `Bearer ${h.server.token}` };
    const cases: [string, Promise<Response>, number, string][] = [
      ['no token', fetch(`${url}/api/sessions`), 401, 'unauthorized'],
      ['unknown route', fetch(`${url}/api/nowhere`, { headers: auth }), 404, 'not_found'],
      [
        'foreign origin',
        fetch(`${url}/api/sessions`, { headers: { ...auth, origin: 'https://evil.example' } }),
        403,
        'forbidden',
      ],
      [
        'unreadable JSON',
        fetch(`${url}/api/sessions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{',
        }),
        400,
        'bad_request',
      ],
      [
        'a body too large',
        fetch(`${url}/api/sessions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'x'.repeat(11 * 1024 * 1024) }),
        }),
        413,
        'bad_request',
      ],
      ['an unknown session', fetch(`${url}/api/sessions/nope`, { headers: auth }), 404, 'not_found'],
    ];
    for (const [what, response, status, code] of cases) {
      const res = await response;
      expect(res.status, what).toBe(status);
      expect(strictCode(await res.json()), what).toBe(code);
    }

    const ws = await connectWs(url);
    ws.send({ type: 'authenticate', token: h.server.token });
    await ws.next((m) => m.type === 'authenticated');
    ws.send({ type: 'subscribe', session_id: 'nope', after_seq: 0 });
    const wsError = await ws.next((m) => m.type === 'error');
    expect(strictCode(wsError)).toBe('not_found');
    ws.socket.close();
  });
});
