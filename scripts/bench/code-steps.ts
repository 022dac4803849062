// (i) Code as action: what Cairn spends between two model calls in a code-mode step (extract the code, run
// it as the agent's execute_code cell, format the observation, send the next request) against a plain tool
// round in tools mode running the same code through execute_code, both in one sidecar in the same run.
import { performance } from 'node:perf_hooks';
import { CLOSE_TAG } from '../../sidecar/src/agent/code-mode/code-turn';
import { startHarness } from '../../sidecar/test/support/harness';
import { STDLIB_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import type { ModelServer, ScriptedReply } from '../../sidecar/test/support/model-server';
import { median, ms, type Row, ratio } from './util';

export interface CodeStepBenchOptions {
  /** Steps (and tool rounds) timed each. */
  steps: number;
  /** Untimed ones first: the kernel's start and the prelude fall in these. */
  warmup: number;
}

const SECTION = '(i) code as action';
const STEP = 'x = x + 1\nprint(x)';

export async function benchCodeSteps(
  model: ModelServer,
  options: CodeStepBenchOptions,
  log: (what: string) => void,
): Promise<Row[]> {
  const total = options.warmup + options.steps;
  // The turn must end on final_answer, not on the step limit: the first step sets x, the last answers.
  const h = await startHarness({
    model,
    env: { ...STDLIB_KERNEL_ENV, CAIRN_CODE_MAX_STEPS: String(total + 2) },
  });
  try {
    /**
     * Runs one turn whose replies come from `reply(i)`, and returns the gaps from each reply leaving the
     * handler to the next request arriving: Cairn's time between model calls, the model's own excluded.
     * The replies are tiny, so their streaming is the same small share of both modes' gaps.
     */
    const gaps = async (sessionId: string, reply: (i: number) => ScriptedReply): Promise<number[]> => {
      const times: number[] = [];
      let sentAt = Number.NaN;
      let i = 0;
      const handler: ScriptedReply = {
        kind: 'handler',
        handle: () => {
          const arrived = performance.now();
          if (i > 0) times.push(arrived - sentAt);
          const next = reply(i++);
          if (i <= total + 1) model.enqueue(handler);
          sentAt = performance.now();
          return next;
        },
      };
      model.enqueue(handler);
      const turn = await h.startTurn(sessionId, 'count');
      const ended = await h.waitForTurnEnd(turn.id);
      if (ended.status !== 'completed') {
        throw new Error(`the bench turn ended ${ended.status}: ${ended.error?.message ?? ''}`);
      }
      // Gap k follows reply k: reply 0 (setting x) and the first `warmup` steps are untimed; the answer,
      // the last reply, has no gap after it.
      return times.slice(options.warmup + 1);
    };

    const code = await h.newSession();
    h.server.core.store.sessions.update(code.sessionId, { mode: 'code' });
    const tagged = (body: string): ScriptedReply => ({
      content: [{ type: 'text', text: `Next.\n<code>\n${body}\n` }],
      stop_reason: 'stop_sequence',
      stop_sequence: CLOSE_TAG,
    });
    log(`${options.steps} code steps (${options.warmup} untimed first)`);
    const codeGaps = await gaps(code.sessionId, (i) =>
      i === 0 ? tagged('x = 0') : i <= total ? tagged(STEP) : tagged('final_answer(x)'),
    );

    const tools = await h.newSession();
    log(`${options.steps} execute_code tool rounds (${options.warmup} untimed first)`);
    const toolGaps = await gaps(tools.sessionId, (i) => {
      if (i > total) return { content: [{ type: 'text', text: 'done' }] };
      return {
        content: [{ type: 'tool_use', name: 'execute_code', input: { code: i === 0 ? 'x = 0' : STEP } }],
      };
    });

    const subject = median(codeGaps);
    const reference = median(toolGaps);
    return [
      {
        section: SECTION,
        what: `a code step: reply → next request (median of ${codeGaps.length})`,
        value: ms(subject),
        reference: ms(reference),
        ratio: ratio(subject, reference),
        note: 'reference: an execute_code tool round with the same code in tools mode; model time excluded',
      },
    ];
  } finally {
    await h.close();
  }
}
