import type { ModelServer } from './model-server';

/**
 * Scripts a reply of twenty text blocks (many deltas) that the model server holds back until the returned
 * function is called: a turn waits at its first model request, for a test to act mid-turn.
 */
export function heldReply(model: ModelServer, text: string): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  model.enqueue({
    kind: 'handler',
    handle: async () => {
      await released;
      return {
        content: Array.from({ length: 20 }, (_, i) => ({ type: 'text' as const, text: `${text}${i} ` })),
      };
    },
  });
  return release;
}
