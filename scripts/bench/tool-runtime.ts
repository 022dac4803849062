// (g) The tool runtime: a script's tool call round trip (the Python client cairn_tools → the script endpoint →
// the dispatcher → the reply) against the same call made in-process through the same dispatcher.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startHarness } from '../../sidecar/test/support/harness';
import type { ModelServer } from '../../sidecar/test/support/model-server';
import { median, ms, type Row, ratio } from './util';

export interface ToolRuntimeBenchOptions {
  /** Read calls timed on each side. */
  calls: number;
  /** Untimed calls first on each side. */
  warmup: number;
}

const SECTION = '(g) tool runtime';

/** Runs in a Bash call of the agent, with the endpoint and token that call got. */
const SCRIPT = `
import json, statistics, sys, time
import cairn_tools
calls, warmup = int(sys.argv[1]), int(sys.argv[2])
times = []
for i in range(warmup + calls):
    start = time.perf_counter()
    reply = cairn_tools.call("Read", {"path": "small.txt"})
    elapsed = (time.perf_counter() - start) * 1000
    if reply.is_error:
        raise SystemExit("Read failed: " + reply.content)
    if i >= warmup:
        times.append(elapsed)
print("BENCH " + json.dumps({"median": statistics.median(times)}))
`;

export async function benchToolRuntime(
  model: ModelServer,
  options: ToolRuntimeBenchOptions,
  log: (what: string) => void,
): Promise<Row[]> {
  const h = await startHarness({ model });
  try {
    fs.writeFileSync(path.join(h.projectDir, 'small.txt'), 'a small file\nof three\nlines\n');
    fs.writeFileSync(path.join(h.projectDir, 'bench_calls.py'), SCRIPT);
    const { sessionId } = await h.newSession();
    model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: `python3 bench_calls.py ${options.calls} ${options.warmup}`, timeout: 600 },
          },
        ],
      },
      { content: [{ type: 'text', text: 'measured' }] },
    );
    log(`${options.calls} Read calls from a Python script`);
    const turn = await h.startTurn(sessionId, 'measure');
    const ended = await h.waitForTurnEnd(turn.id);
    const bash = h.server.core.store.toolCalls
      .forTurns([turn.id])
      .get(turn.id)
      ?.find((c) => c.name === 'Bash');
    const output = bash ? (h.server.core.services.toolCalls.get(bash.id).result ?? '') : '';
    const line = output.split('\n').find((l) => l.startsWith('BENCH '));
    if (ended.status !== 'completed' || !line)
      throw new Error(`the script's calls failed: ${output.slice(-500)}`);
    const script = (JSON.parse(line.slice('BENCH '.length)) as { median: number }).median;

    // The same call in-process: the session's runtime, the same runner, records, files and events.
    log(`${options.calls} Read calls in-process`);
    const runtime = h.server.core.services.toolRuntime.session(sessionId);
    await runtime.beginTurn({
      sessionId,
      turnId: turn.id,
      projectRoot: h.projectDir,
      signal: new AbortController().signal,
    });
    const times: number[] = [];
    for (let i = 0; i < options.warmup + options.calls; i++) {
      const start = performance.now();
      const outcome = await runtime.runForModel(
        { id: `bench_${i}`, name: 'Read', input: { path: 'small.txt' } },
        new AbortController().signal,
      );
      const elapsed = performance.now() - start;
      if (outcome.isError) throw new Error(`Read failed in-process: ${outcome.content}`);
      if (i >= options.warmup) times.push(elapsed);
    }
    runtime.endTurn(turn.id);
    const inProcess = median(times);
    return [
      {
        section: SECTION,
        what: `script tool call round trip (median of ${options.calls} Read calls)`,
        value: ms(script, 3),
        reference: ms(inProcess, 3),
        ratio: ratio(script, inProcess),
        note: 'cairn_tools → endpoint → dispatcher → reply; reference: the same call in-process',
      },
    ];
  } finally {
    await h.close();
  }
}
