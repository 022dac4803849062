import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { startModelServer } from '../support/model-server';
import { seedTurns } from '../support/seed-turns';

const noRetry = { 'x-should-retry': 'false' };

describe('model errors end the turn with a message that says what to do', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a rejected key', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      kind: 'http_error',
      status: 401,
      type: 'authentication_error',
      message: 'invalid x-api-key',
      headers: noRetry,
    });
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('model_auth');
    expect(done.error?.message).toMatch(/API key/);
    expect(done.error?.message).toMatch(/CAIRN_ANTHROPIC_API_KEY/);
  });

  it('an overloaded provider, after the SDK’s own retries', async () => {
    h = await startHarness({ env: { CAIRN_MODEL_MAX_RETRIES: '2' } });
    const { sessionId } = await h.newSession();
    const overloaded = {
      kind: 'http_error' as const,
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'retry-after-ms': '1' },
    };
    h.model.enqueue(overloaded, overloaded, overloaded);
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    expect(h.model.requests).toHaveLength(3); // one try plus the two retries the SDK was configured with
    expect(done.error?.code).toBe('model_overloaded');
    expect(done.error?.message).toMatch(/try again/i);
  });

  it('a retry that succeeds leaves no trace of failure', async () => {
    h = await startHarness({ env: { CAIRN_MODEL_MAX_RETRIES: '2' } });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        kind: 'http_error',
        status: 529,
        type: 'overloaded_error',
        message: 'Overloaded',
        headers: { 'retry-after-ms': '1' },
      },
      { content: [{ type: 'text', text: 'fine now' }] },
    );
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    expect(done.status).toBe('completed');
  });

  it('an unreachable base URL', async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    h = await startHarness({ env: { CAIRN_ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` } });
    const { sessionId } = await h.newSession();
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    expect(done.error?.code).toBe('model_unreachable');
    expect(done.error?.message).toContain(`127.0.0.1:${port}`);
  });

  it('a mid-stream error keeps the partial output', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      kind: 'stream_error',
      content: [{ type: 'text', text: 'Here is the start of it' }],
      type: 'overloaded_error',
      message: 'Overloaded',
    });
    const turn = await h.startTurn(sessionId, 'hi');
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('model_overloaded');
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const assistant = page.body.turns[0]!.messages.find((m) => m.role === 'assistant');
    expect(assistant?.content).toEqual([{ type: 'text', text: 'Here is the start of it' }]);
  });

  it('compacts now at block level without a key (no model call); a summary needs one and says so', async () => {
    h = await startHarness({ env: { CAIRN_ANTHROPIC_API_KEY: undefined } });
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 4, (i) => ({
      prompt: `prompt ${i}`,
      answer: `answer ${i} `.repeat(300),
    }));
    const block = await h.api<{ compacted: { level: string } }>(
      'POST',
      `/api/sessions/${sessionId}/context/compact`,
      {
        level: 'block',
      },
    );
    expect(block.status).toBe(200);
    expect(block.body.compacted.level).toBe('block');
    const session = await h.api<{ error: { code: string } }>(
      'POST',
      `/api/sessions/${sessionId}/context/compact`,
      {
        level: 'session',
      },
    );
    expect(session.body.error.code).toBe('model_no_key');
    expect(h.model.requests).toHaveLength(0);
  });

  it('no key at all fails the turn and names the ways to set one', async () => {
    h = await startHarness({ env: { CAIRN_ANTHROPIC_API_KEY: undefined } });
    const { sessionId } = await h.newSession();
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    expect(done.error?.code).toBe('model_no_key');
    expect(done.error?.message).toMatch(/CAIRN_ANTHROPIC_API_KEY/);
    expect(h.model.requests).toHaveLength(0);
  });

  it('a request that cannot fit the context window fails before anything is sent, nothing cut', async () => {
    const model = await startModelServer();
    h = await startHarness({ model });
    const created = await h.api<{ id: string }>('POST', '/api/models', {
      name: 'tiny',
      model: 'cairn-test-model',
      context_window: 2048,
      max_tokens: 1024,
    });
    expect(created.status).toBe(201);
    const { sessionId } = await h.newSession();
    const done = await h.waitForTurnEnd((await h.startTurn(sessionId, 'x'.repeat(20_000))).id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('context_window_exceeded');
    expect(done.error?.message).toMatch(/context window 2048/);
    expect(model.requests).toHaveLength(0);
    await model.close();
  });
});
