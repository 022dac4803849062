// The bounds on a server's forms (elicitation/create), in process: a real SDK server and client linked in
// memory, the handler Cairn installs on the client. One form at a time per call, a cap per call, and the
// warnings about it rate-limited (a hostile or looping server must not flood the questions or the log).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/log/logger';
import { CallDeadline } from '../../src/mcp/call-deadline';
import { ELICITATION_LIMITS, type Elicit, handleElicitations } from '../../src/mcp/elicitation-handler';

const FORM = {
  mode: 'form' as const,
  message: 'Sure?',
  requestedSchema: { type: 'object' as const, properties: {} },
};

function recordingLogger(warnings: string[]): Logger {
  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (msg) => warnings.push(msg),
    error: () => {},
    child: () => log,
  };
  return log;
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** A server and a client with the handler, during one running call that puts forms to `elicit`. */
async function connect(elicit: Elicit) {
  const warnings: string[] = [];
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  const client = new Client(
    { name: 'cairn', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const call = { controller: new AbortController(), deadline: new CallDeadline(null, 't', () => {}), elicit };
  handleElicitations(
    client,
    { id: 's', name: 'asker', toolTimeoutMs: 60_000 },
    () => [call],
    recordingLogger(warnings),
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { server, warnings };
}

describe('handleElicitations: a server’s forms are bounded per call', () => {
  it('answers "cancel" at once to forms sent while one waits, warning once', async () => {
    let asked = 0;
    let answer!: (a: { action: 'decline'; content: null }) => void;
    const { server, warnings } = await connect(() => {
      asked++;
      return new Promise((resolve) => {
        answer = resolve;
      });
    });
    const sent = Array.from({ length: 5 }, () => server.server.elicitInput(FORM));
    // The four extra forms come back while the first still waits for the user.
    const extra = await Promise.all(sent.slice(1));
    expect(extra.map((r) => r.action)).toEqual(['cancel', 'cancel', 'cancel', 'cancel']);
    expect(asked).toBe(1);
    answer({ action: 'decline', content: null });
    expect((await sent[0])!.action).toBe('decline');
    expect(warnings).toHaveLength(1);
    // The wait over, the call may ask again.
    const again = server.server.elicitInput(FORM);
    while (asked < 2) await new Promise((r) => setImmediate(r));
    answer({ action: 'decline', content: null });
    expect((await again).action).toBe('decline');
  });

  it(`puts at most ${ELICITATION_LIMITS.formsPerCall} forms of one call to the user, then answers "cancel"`, async () => {
    let asked = 0;
    const { server, warnings } = await connect(async () => {
      asked++;
      return { action: 'decline', content: null };
    });
    const actions: string[] = [];
    // A server that asks again after every answer.
    for (let i = 0; i < ELICITATION_LIMITS.formsPerCall + 3; i++) {
      actions.push((await server.server.elicitInput(FORM)).action);
    }
    expect(asked).toBe(ELICITATION_LIMITS.formsPerCall);
    expect(actions).toEqual([
      ...Array<string>(ELICITATION_LIMITS.formsPerCall).fill('decline'),
      'cancel',
      'cancel',
      'cancel',
    ]);
    expect(warnings).toHaveLength(1);
  });
});

describe('handleElicitations: several calls running on one server', () => {
  afterEach(() => vi.useRealTimers());

  it('puts the form to the newest waited call, and stops every running call’s clock meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const expired: string[] = [];
    const asked: string[] = [];
    let answer!: (a: { action: 'decline'; content: null }) => void;
    const call = (name: string, background: boolean) => ({
      controller: new AbortController(),
      deadline: new CallDeadline(1_000, name, (why) => expired.push(why)),
      background,
      elicit: (() => {
        asked.push(name);
        return new Promise((resolve) => {
          answer = resolve;
        });
      }) as Elicit,
    });
    // Oldest first, as the connection keeps them: an older background call, an older and a newer waited one.
    const calls = [call('bg', true), call('old', false), call('new', false)];
    const server = new McpServer({ name: 'asker', version: '1.0.0' });
    const client = new Client(
      { name: 'cairn', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    handleElicitations(
      client,
      { id: 's', name: 'asker', toolTimeoutMs: 60_000 },
      () => calls,
      recordingLogger([]),
    );
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    closers.push(async () => {
      await client.close();
      await server.close();
    });

    const sent = server.server.elicitInput(FORM);
    while (asked.length === 0) await new Promise((r) => setImmediate(r));
    expect(asked).toEqual(['new']);
    vi.advanceTimersByTime(30_000);
    expect(expired).toEqual([]);
    answer({ action: 'decline', content: null });
    expect((await sent).action).toBe('decline');
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveLength(3);
  });
});
