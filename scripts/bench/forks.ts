// (h) Forks: the time from a Fork spawn to the fork's first model request, against the time from starting a
// plain turn to its first request, both in sessions with the same history, taken in turn in the same run.
import { performance } from 'node:perf_hooks';
import { startHarness } from '../../sidecar/test/support/harness';
import type { ModelServer, RecordedRequest, ScriptedReply } from '../../sidecar/test/support/model-server';
import { seedTurns } from '../../sidecar/test/support/seed-turns';
import { median, ms, type Row, ratio } from './util';

export interface ForkBenchOptions {
  /** Spawns and plain turns timed each. */
  runs: number;
  /** Untimed ones first. */
  warmup: number;
  /** Finished turns in the parent's history (and in each plain turn's session). */
  historyTurns: number;
}

const SECTION = '(h) forks';

/**
 * The marker a request carries in its last message: the fork's task line first (its message also holds the
 * parent's prompt it started from), else the plain turn's or the parent's prompt.
 */
function markerOf(req: RecordedRequest): string | null {
  const texts = JSON.stringify(req.body.messages.at(-1)?.content ?? '');
  for (const kind of ['fork', 'plain', 'parent']) {
    const found = new RegExp(`bench ${kind} \\d+`).exec(texts);
    if (found) return found[0];
  }
  return null;
}

export async function benchForks(
  model: ModelServer,
  options: ForkBenchOptions,
  log: (what: string) => void,
): Promise<Row[]> {
  const h = await startHarness({ model });
  const arrivals = new Map<string, { at: number; resolve: () => void; seen: Promise<void> }>();
  const arrival = (marker: string) => {
    let entry = arrivals.get(marker);
    if (!entry) {
      let resolve: () => void = () => undefined;
      const seen = new Promise<void>((r) => {
        resolve = r;
      });
      entry = { at: Number.NaN, resolve, seen };
      arrivals.set(marker, entry);
    }
    return entry;
  };
  let releaseParent: (reply: ScriptedReply) => void = () => undefined;
  // Stamps each request as it arrives; the parent's first one is held while forks are spawned from its turn.
  const handler: ScriptedReply = {
    kind: 'handler',
    handle: (req) => {
      const at = performance.now();
      model.enqueue(handler);
      const marker = markerOf(req);
      if (marker) {
        const entry = arrival(marker);
        entry.at = at;
        entry.resolve();
      }
      if (marker === 'bench parent 0') return new Promise<ScriptedReply>((r) => (releaseParent = r));
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  };
  model.enqueue(handler);
  try {
    const { services, store, runtime } = h.server.core;
    const project = services.projects.open(h.projectDir);
    const history = (id: string) =>
      seedTurns(store, id, options.historyTurns, (i) => ({
        prompt: `question ${i}: ${'what did we find in the notes? '.repeat(4)}`,
        answer: `answer ${i}: ${'here is what the notes say. '.repeat(12)}`,
      }));
    const parent = services.sessions.create({ project_id: project.id });
    history(parent.id);
    const parentTurn = services.turns.start(parent.id, {
      prompt: 'bench parent 0',
      request_id: 'bench-parent',
    });
    await arrival('bench parent 0').seen;

    const spawnOnce = async (i: number): Promise<number> => {
      const marker = `bench fork ${i}`;
      const start = performance.now();
      const { fork_id: forkId } = services.forks.spawn(
        { sessionId: parent.id, turnId: parentTurn.id },
        { task: marker, instruction: 'Say ok.' },
      );
      await arrival(marker).seen;
      const elapsed = arrival(marker).at - start;
      const turn = store.turns.byRequestId(forkId, `fork:${forkId}`);
      if (turn) await runtime.waitForTurn(turn.id);
      return elapsed;
    };
    const plainOnce = async (i: number): Promise<number> => {
      const marker = `bench plain ${i}`;
      const session = services.sessions.create({ project_id: project.id });
      history(session.id);
      const start = performance.now();
      const turn = services.turns.start(session.id, { prompt: marker, request_id: `bench-${i}` });
      await arrival(marker).seen;
      const elapsed = arrival(marker).at - start;
      await runtime.waitForTurn(turn.id);
      return elapsed;
    };

    log(`${options.runs} spawns and ${options.runs} plain turns, ${options.historyTurns} turns of history`);
    const forks: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < options.warmup + options.runs; i++) {
      const f = await spawnOnce(i);
      const p = await plainOnce(i);
      if (i >= options.warmup) {
        forks.push(f);
        plain.push(p);
      }
    }
    releaseParent({ content: [{ type: 'text', text: 'done' }] });
    const ended = await runtime.waitForTurn(parentTurn.id);
    if (ended?.status !== 'completed') throw new Error(`the parent turn ended ${ended?.status}`);
    const fork = median(forks);
    const reference = median(plain);
    return [
      {
        section: SECTION,
        what: `Fork spawn → the fork's first model request (median of ${options.runs})`,
        value: ms(fork),
        reference: ms(reference),
        ratio: ratio(fork, reference),
        note: `reference: a plain turn's start → its first request; both with ${options.historyTurns} turns of history`,
      },
    ];
  } finally {
    await h.close();
  }
}
