// (f) The context layer: the agent's automatic Block compaction of a session of about 200k estimated tokens,
// against reading that session's messages from SQLite; and the share of a scripted tool loop's input tokens
// that a prompt cache would serve, given the breakpoints the requests carry.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { compactorPorts } from '../../sidecar/src/application/context/compactor-ports';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_TOKENS,
} from '../../sidecar/src/application/models/active-model';
import {
  type CompactionRequest,
  type CompactionResult,
  Compactor,
} from '../../sidecar/src/context/compactor';
import { AUTO_TARGET, thresholdTokens, usableWindow } from '../../sidecar/src/context/context-budget';
import { estimateTokens } from '../../sidecar/src/context/token-estimate';
import { type ContentBlock, DEFAULT_COMPACT_THRESHOLD, type Usage } from '../../sidecar/src/protocol';
import { Store } from '../../sidecar/src/store/store';
import { ToolCallFiles } from '../../sidecar/src/tools/tool-call-files';
import { startHarness } from '../../sidecar/test/support/harness';
import type { ScriptedReply } from '../../sidecar/test/support/model-server';
import { PromptCache } from '../../sidecar/test/support/prompt-cache';
import { median, ms, type Row, ratio, tempDir } from './util';

export interface ContextBenchOptions {
  /** Estimated tokens of history in each compacted session. */
  sessionTokens: number;
  /** Timed compactions, each of a fresh session, after `warmup` untimed ones. */
  runs: number;
  warmup: number;
  /** Model↔tool rounds of the scripted loop. */
  rounds: number;
}

const SECTION = '(f) context';
const ROUNDS_PER_TURN = 6;

/** Lines of TypeScript-looking source, different for each seed. */
function sourceLines(lines: number, seed: number): string[] {
  return Array.from(
    { length: lines },
    (_, i) =>
      `export function step${seed}_${i}(input: string, weight = ${(seed * 31 + i) % 97}): number { return input.length * weight; }`,
  );
}

/** What Read returns for such a file: its lines numbered like `cat -n`. */
function readResult(lines: number, seed: number): string {
  return sourceLines(lines, seed)
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n');
}

interface SeededSession {
  sessionId: string;
  /** The turn whose next request is about to be sent: the agent compacts before it. */
  turnId: string;
  tokens: number;
  messages: number;
}

/**
 * A session as the runtime writes one: turns of Read rounds, each result a tool call with its result.txt and
 * a tool_result of about 1,000 to 4,000 estimated tokens (under the dispatcher's limit), until the history holds
 * `tokens`; then the prompt of a new turn, whose first request passes the threshold.
 */
function seedSession(store: Store, files: ToolCallFiles, tokens: number): SeededSession {
  const sessionId = store.sessions.create({ projectId: null, title: 'bench: 200k tokens' }).id;
  let total = 0;
  let messages = 0;
  const append = (turnId: string, role: 'user' | 'assistant', content: ContentBlock[]): void => {
    store.messages.append({ sessionId, turnId, role, content });
    total += content.reduce((sum, block) => sum + estimateTokens(block), 0);
    messages += 1;
  };
  const prompt = (ordinal: number, text: string): string =>
    store.transaction(() => {
      const turn = store.turns.create(sessionId, `seed-${ordinal}`, text);
      append(turn.id, 'user', [{ type: 'text', text }]);
      return turn.id;
    });
  let ordinal = 1;
  for (let results = 0; total < tokens; ordinal++) {
    const turnId = prompt(
      ordinal,
      `Go through the modules of part ${ordinal} and explain what they compute.`,
    );
    for (let r = 1; r <= ROUNDS_PER_TURN && total < tokens; r++) {
      const seed = ++results;
      const toolUseId = `toolu_bench_${ordinal}_${r}`;
      const input = { path: `src/part-${ordinal}/module-${r}.ts` };
      const content = readResult(34 + ((seed * 7919) % 100), seed);
      store.transaction(() => {
        append(turnId, 'assistant', [
          { type: 'text', text: `Reading module ${r} of part ${ordinal}.` },
          { type: 'tool_use', id: toolUseId, name: 'Read', input },
        ]);
        const call = store.toolCalls.create({
          sessionId,
          turnId,
          toolUseId,
          name: 'Read',
          input,
          status: 'running',
        });
        store.toolCalls.finish(call.id, {
          status: 'completed',
          isError: false,
          preview: content.slice(0, 500),
          resultFile: files.writeResult(sessionId, call.id, content),
          durationMs: 1,
        });
        append(turnId, 'user', [{ type: 'tool_result', tool_use_id: toolUseId, content }]);
      });
    }
    store.transaction(() => {
      append(turnId, 'assistant', [{ type: 'text', text: `Part ${ordinal}: each module scales its input.` }]);
      store.turns.finish(turnId, 'completed');
    });
  }
  const turnId = prompt(ordinal, 'Now compare the parts with each other.');
  return { sessionId, turnId, tokens: total, messages };
}

const noSummary = (): Promise<never> =>
  Promise.reject(new Error('a Block compaction asked the model for a summary'));

/** The agent's automatic compaction before a request (context-step.ts), with the default model's window. */
function thresholdRequest(session: SeededSession): CompactionRequest {
  const settings = {
    model: 'bench',
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxTokens: DEFAULT_MAX_TOKENS,
    compactThreshold: DEFAULT_COMPACT_THRESHOLD,
  };
  const limit = thresholdTokens(settings)!;
  return {
    sessionId: session.sessionId,
    turnId: session.turnId,
    reason: 'threshold',
    level: 'auto',
    // The system prompt and tools are left out: the history alone is over the threshold.
    budget: {
      overhead: 0,
      usable: usableWindow(settings),
      target: Math.floor(limit * AUTO_TARGET),
      threshold: limit,
      scale: 1,
    },
    summarize: noSummary,
    signal: new AbortController().signal,
  };
}

/** Compacts a fresh session per run (a compacted one has nothing left to stub), reading each first. */
async function benchBlockCompaction(options: ContextBenchOptions): Promise<Row> {
  const dataDir = tempDir('context');
  const store = Store.open(dataDir);
  try {
    const files = new ToolCallFiles(dataDir);
    const sessions = Array.from({ length: options.warmup + options.runs }, () =>
      seedSession(store, files, options.sessionTokens),
    );
    // The composition root's ports, without kernels: a Block compaction asks for none.
    const compactor = new Compactor(compactorPorts(store, files));
    const compactMs: number[] = [];
    const readMs: number[] = [];
    let last: CompactionResult | null = null;
    for (const [i, session] of sessions.entries()) {
      const started = performance.now();
      const messages = store.messages.range(session.sessionId, null, null);
      const read = performance.now();
      last = await compactor.compact(thresholdRequest(session));
      const done = performance.now();
      if (messages.length !== session.messages) throw new Error(`read ${messages.length} messages`);
      if (last.level !== 'block' || last.tokensAfter >= last.tokensBefore) {
        throw new Error(
          `expected a Block compaction, got ${last.level}: ${last.tokensBefore} → ${last.tokensAfter}`,
        );
      }
      if (i < options.warmup) continue;
      readMs.push(read - started);
      compactMs.push(done - read);
    }
    const compaction = median(compactMs);
    const reading = median(readMs);
    const session = sessions[0]!;
    const stubs = last!.version.cuts.length;
    const json = store.messages
      .range(session.sessionId, null, null)
      .reduce((sum, m) => sum + JSON.stringify(m.content).length, 0);
    return {
      section: SECTION,
      what: `Block compaction of a ${Math.round(session.tokens / 1000)}k-token session`,
      value: ms(compaction),
      reference: ms(reading),
      ratio: ratio(compaction, reading),
      note:
        `median of ${options.runs}; Compactor.compact as the agent's threshold compaction (${DEFAULT_CONTEXT_WINDOW / 1000}k ` +
        `window): ${last!.tokensBefore.toLocaleString('en-US')} → ${last!.tokensAfter.toLocaleString('en-US')} ` +
        `tokens, ${stubs} results stubbed; reference: messages.range() of its ${session.messages} messages, ` +
        `${(json / 1024 / 1024).toFixed(1)} MiB (buildView's read)`,
    };
  } finally {
    store.close();
  }
}

/** Files of different sizes, read in turn, as a loop going through a project's sources would. */
const LOOP_FILES = [40, 120, 260, 80];

/**
 * A scripted tool loop through a real sidecar and the SDK; then each captured request in order through a
 * fresh PromptCache (the API's rules: prefixes stored at breakpoints, a hit within 20 blocks before one of
 * the request's own, nothing under 1,024 tokens), counting the input tokens it would read from the cache.
 */
async function benchCacheServed(rounds: number): Promise<Row> {
  const h = await startHarness();
  try {
    const names = LOOP_FILES.map((lines, i) => {
      const name = `module-${i}.ts`;
      fs.writeFileSync(path.join(h.projectDir, name), `${sourceLines(lines, i).join('\n')}\n`);
      return name;
    });
    const { sessionId } = await h.newSession();
    const replies: ScriptedReply[] = Array.from({ length: rounds }, (_, i) => ({
      content: [
        { type: 'text', text: `Round ${i + 1}: reading ${names[i % names.length]}.` },
        { type: 'tool_use', name: 'Read', input: { path: names[i % names.length] } },
      ],
    }));
    h.model.enqueue(...replies, { content: [{ type: 'text', text: 'Read them all.' }] });
    const turn = await h.waitForTurnEnd(
      (await h.startTurn(sessionId, 'read the modules, again and again')).id,
    );
    const requests = h.model.requests.map((r) => r.body);
    if (turn.status !== 'completed' || requests.length !== rounds + 1) {
      throw new Error(
        `the loop ended ${turn.status} after ${requests.length} requests: ${turn.error?.message}`,
      );
    }
    const cache = new PromptCache();
    // The model server counts a request's input as its body's characters / 4, as the cache does.
    for (const body of requests) cache.use(body, Math.ceil(JSON.stringify(body).length / 4));
    const { input, read, written } = cache.totals;
    const all = input + read + written;
    const served = read / all;
    const reported = servedShare(turn.usage);
    const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
    return {
      section: SECTION,
      what: `cache-served fraction of a ${rounds}-round tool loop`,
      value: percent(served),
      note:
        `${served >= 0.9 ? 'target' : 'BELOW the target'} ≥ 90%; ${read.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} input tokens over ` +
        `${requests.length} requests, ${written.toLocaleString('en-US')} written; the turn's usage (the model ` +
        `server's cache) said ${reported === null ? 'nothing' : percent(reported)}`,
    };
  } finally {
    await h.close();
  }
}

function servedShare(usage: Usage | null): number | null {
  if (!usage) return null;
  const all = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  return all > 0 ? usage.cache_read_input_tokens / all : null;
}

/** (f) Block compaction of a large session, and how much of a tool loop's input a prompt cache serves. */
export async function benchContext(
  options: ContextBenchOptions,
  log: (what: string) => void,
): Promise<Row[]> {
  log(`(f) block compaction of ${options.warmup + options.runs} sessions`);
  const compaction = await benchBlockCompaction(options);
  log(`(f) a ${options.rounds}-round tool loop`);
  return [compaction, await benchCacheServed(options.rounds)];
}
