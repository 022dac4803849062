import type { Store } from '../../src/store/store';

export type SeedText = (i: number) => { prompt: string; answer: string };

const plain: SeedText = (i) => ({ prompt: `prompt ${i}`, answer: `answer ${i}` });

/**
 * Fills a session with `count` finished turns (ordinals 1..count), each written as the runtime writes
 * one: the turn, its prompt and its answer in one transaction.
 */
export function seedTurns(store: Store, sessionId: string, count: number, text: SeedText = plain): void {
  for (let i = 1; i <= count; i += 1) {
    const { prompt, answer } = text(i);
    store.transaction(() => {
      const turn = store.turns.create(sessionId, `seed-${i}`, prompt);
      store.messages.append({
        sessionId,
        turnId: turn.id,
        role: 'user',
        content: [{ type: 'text', text: prompt }],
      });
      store.messages.append({
        sessionId,
        turnId: turn.id,
        role: 'assistant',
        content: [{ type: 'text', text: answer }],
      });
      store.turns.finish(turn.id, 'completed');
    });
  }
}
