import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelConfig, SessionDetail, Turn } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const usage = (input: number, output: number, read: number, write: number) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
});

describe('usage and cost through the API', () => {
  it("prices each turn with its model config's prices, sums the session, and follows a price change", async () => {
    const created = await h.api('POST', '/api/models', {
      name: 'priced',
      model: 'cairn-test-model',
      price_input: 3,
      price_output: 15,
      price_cache_read: 0.3,
      price_cache_write: 3.75,
    });
    expect(created.status).toBe(201);
    const model = created.body as ModelConfig;
    expect(model).toMatchObject({
      price_input: 3,
      price_output: 15,
      price_cache_read: 0.3,
      price_cache_write: 3.75,
    });

    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'one' }], usage: usage(1000, 200, 4000, 500) });
    const first = await h.waitForTurnEnd((await h.startTurn(sessionId, 'first')).id);
    h.model.enqueue({ content: [{ type: 'text', text: 'two' }], usage: usage(2000, 100, 0, 0) });
    const second = await h.waitForTurnEnd((await h.startTurn(sessionId, 'second')).id);

    const costOf = (u: ReturnType<typeof usage>) =>
      (u.input_tokens * 3 +
        u.output_tokens * 15 +
        u.cache_read_input_tokens * 0.3 +
        u.cache_creation_input_tokens * 3.75) /
      1e6;
    const turnOne = (await h.api('GET', `/api/turns/${first.id}`)).body as Turn;
    expect(turnOne.usage).toEqual(usage(1000, 200, 4000, 500));
    expect(turnOne.cost).toBeCloseTo(costOf(usage(1000, 200, 4000, 500)), 12);

    const detail = (await h.api('GET', `/api/sessions/${sessionId}`)).body as SessionDetail;
    expect(detail.usage).toMatchObject(usage(3000, 300, 4000, 500));
    expect(detail.usage.cost).toBeCloseTo(
      costOf(usage(1000, 200, 4000, 500)) + costOf(usage(2000, 100, 0, 0)),
      12,
    );

    // Prices are read when asked: clearing them leaves the tokens and no cost.
    await h.api('PATCH', `/api/models/${model.id}`, { price_input: null, price_output: null });
    const unpriced = (await h.api('GET', `/api/turns/${second.id}`)).body as Turn;
    expect(unpriced.usage).toEqual(usage(2000, 100, 0, 0));
    expect(unpriced.cost).toBeNull();
    expect(((await h.api('GET', `/api/sessions/${sessionId}`)).body as SessionDetail).usage.cost).toBeNull();
  });

  it('refuses a negative price with a clear 400', async () => {
    const res = await h.api('POST', '/api/models', { name: 'bad', model: 'm', price_output: -1 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('price_output');
  });
});
