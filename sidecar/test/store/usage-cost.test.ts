import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store';
import { estimateCost } from '../../src/store/usage-cost';

let dataDir: string;
let store: Store;

beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cost-')));
  store = Store.open(dataDir);
});

afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const USAGE = {
  input_tokens: 1_000_000,
  output_tokens: 200_000,
  cache_read_input_tokens: 500_000,
  cache_creation_input_tokens: 100_000,
};

describe('usage and cost', () => {
  it('prices each kind of token per million, deriving unset cache prices from the input price', () => {
    const set = { price_input: 3, price_output: 15, price_cache_read: 0.3, price_cache_write: 3.75 };
    expect(estimateCost(USAGE, set)).toBeCloseTo(3 + 3 + 0.15 + 0.375, 10);
    const inputOnly = { price_input: 3, price_output: 15, price_cache_read: null, price_cache_write: null };
    expect(estimateCost(USAGE, inputOnly)).toBeCloseTo(3 + 3 + 0.15 + 0.375, 10);
    const none = { price_input: null, price_output: null, price_cache_read: 1, price_cache_write: 1 };
    expect(estimateCost(USAGE, none)).toBeNull();
  });

  it("gives a turn the cost of its model config's prices, read when asked (a price set later counts)", () => {
    const model = store.models.create({
      name: 'm',
      model: 'claude',
      base_url: null,
      context_window: 200_000,
      max_tokens: 8192,
    });
    const session = store.sessions.create({ projectId: null });
    const turn = store.turns.create(session.id, 'r1', 'hi');
    store.turns.addUsage(turn.id, USAGE, model.id);
    expect(store.turns.get(turn.id)?.cost).toBeNull();
    expect(store.turns.get(turn.id)?.usage).toEqual(USAGE);

    store.models.update(model.id, { price_input: 3, price_output: 15 });
    expect(store.turns.get(turn.id)?.cost).toBeCloseTo(6.525, 10);

    const second = store.turns.create(session.id, 'r2', 'again');
    store.turns.addUsage(second.id, { ...USAGE, output_tokens: 0 }, model.id);
    const unpriced = store.turns.create(session.id, 'r3', 'no config');
    store.turns.addUsage(unpriced.id, USAGE, null);
    const total = store.turns.sessionUsage(session.id);
    expect(total.input_tokens).toBe(3_000_000);
    expect(total.output_tokens).toBe(400_000);
    expect(total.cache_read_input_tokens).toBe(1_500_000);
    expect(total.cache_creation_input_tokens).toBe(300_000);
    expect(total.cost).toBeCloseTo(6.525 + 3.525, 10);

    // What the session's forks spent is the session's too.
    const fork = store.sessions.create({
      projectId: null,
      fork: { parentSessionId: session.id, parentTurnId: turn.id, task: 'look', tools: null },
    });
    const forkTurn = store.turns.create(fork.id, 'f1', 'look');
    store.turns.addUsage(forkTurn.id, USAGE, model.id);
    const withFork = store.turns.sessionUsage(session.id);
    expect(withFork.input_tokens).toBe(4_000_000);
    expect(withFork.cost).toBeCloseTo(6.525 * 2 + 3.525, 10);
  });

  it('keeps prices on the model config through create and update, and null clears one', () => {
    const model = store.models.create({
      name: 'p',
      model: 'claude',
      base_url: null,
      context_window: 200_000,
      max_tokens: 8192,
      price_input: 1,
      price_cache_write: 2,
    });
    expect(store.models.get(model.id)).toMatchObject({
      price_input: 1,
      price_output: null,
      price_cache_write: 2,
    });
    store.models.update(model.id, { price_input: null, price_output: 4 });
    expect(store.models.get(model.id)).toMatchObject({
      price_input: null,
      price_output: 4,
      price_cache_write: 2,
    });
  });
});
