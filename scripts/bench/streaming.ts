import http, { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket, { type RawData } from 'ws';
import type { WsServerMessage } from '../../sidecar/src/protocol';
import { type Harness, TEST_KEY, TEST_MODEL } from '../../sidecar/test/support/harness';
import type { ScriptedBlock, ScriptedReply } from '../../sidecar/test/support/model-server';
import { median, ms, percentile, type Row, ratio, us } from './util';

/** model-server.ts streams each text block as this many text_delta events. */
const CHUNKS_PER_BLOCK = 4;
const WAIT_MS = 60_000;

type OnDelta = (text: string, at: number) => void;

/**
 * Text blocks whose every delta is unique: four equal-width segments per block, so the model server's
 * split into four chunks falls exactly on them, and each delta names its round, block and chunk.
 */
function textBlocks(round: number, blocks: number): ScriptedBlock[] {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return Array.from({ length: blocks }, (_, b) => ({
    type: 'text' as const,
    text: Array.from({ length: CHUNKS_PER_BLOCK }, (_, c) => `r${pad(round, 3)}b${pad(b, 4)}c${c};`).join(''),
  }));
}

/** A reply that notes when the model server starts streaming it (the moment its handler is asked). */
function timedReply(content: ScriptedBlock[], delayMs: number, onStart: (at: number) => void): ScriptedReply {
  return {
    kind: 'handler',
    handle: () => {
      onStart(performance.now());
      return { content, delayMs };
    },
  };
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A WebSocket client that stamps each message.delta on arrival, before anything else touches it. */
class WsProbe {
  onDelta: OnDelta | null = null;
  private readonly control: { type: string; resolve: () => void }[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw: RawData) => {
      const at = performance.now();
      const message = JSON.parse(raw.toString()) as WsServerMessage;
      if (message.type === 'event') {
        if (message.event.type === 'message.delta') this.onDelta?.(message.event.text, at);
        return;
      }
      const i = this.control.findIndex((w) => w.type === message.type);
      if (i >= 0) this.control.splice(i, 1)[0]!.resolve();
    });
  }

  static async connect(baseUrl: string, token: string): Promise<WsProbe> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/ws`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const probe = new WsProbe(socket);
    await probe.request({ type: 'authenticate', token }, 'authenticated');
    return probe;
  }

  subscribe(sessionId: string): Promise<void> {
    return this.request({ type: 'subscribe', session_id: sessionId, after_seq: 0 }, 'subscribed');
  }

  close(): void {
    this.socket.close();
  }

  private request(message: unknown, answer: string): Promise<void> {
    const answered = new Promise<void>((resolve) => this.control.push({ type: answer, resolve }));
    this.socket.send(JSON.stringify(message));
    return withTimeout(answered, answer);
  }
}

/** Streams a reply straight from the model server over plain HTTP, stamping each text delta on arrival. */
function readSse(modelUrl: string, onDelta: OnDelta): Promise<void> {
  const body = JSON.stringify({
    model: TEST_MODEL,
    max_tokens: 1024,
    stream: true,
    messages: [{ role: 'user', content: 'stream please' }],
  });
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      `${modelUrl}/v1/messages`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': TEST_KEY,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`model server answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            if (!block.startsWith('event: content_block_delta\n')) continue;
            const data = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
              delta: { type: string; text?: string };
            };
            if (data.delta.type === 'text_delta') onDelta(data.delta.text ?? '', at);
          }
        });
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Notes when the model server writes each text delta, by wrapping ServerResponse#write in this process
 * (the model server runs here; its file stays as it is).
 */
function recordModelWrites(into: Map<string, number>): () => void {
  const proto = ServerResponse.prototype as unknown as { write: (...args: unknown[]) => boolean };
  const original = proto.write;
  proto.write = function (this: ServerResponse, ...args: unknown[]): boolean {
    const chunk = args[0];
    if (typeof chunk === 'string' && chunk.startsWith('event: content_block_delta\n')) {
      const at = performance.now();
      const data = JSON.parse(chunk.slice(chunk.indexOf('data: ') + 6)) as { delta: { text?: string } };
      if (data.delta.text !== undefined) into.set(data.delta.text, at);
    }
    return original.apply(this, args);
  };
  return () => {
    proto.write = original;
  };
}

interface Round {
  /** from the model server starting the reply to the client holding the last delta */
  totalMs: number;
  received: Map<string, number>;
}

function collector(expected: number): {
  onDelta: OnDelta;
  received: Map<string, number>;
  done: Promise<void>;
} {
  const received = new Map<string, number>();
  let resolve: () => void = () => {};
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  return {
    received,
    done,
    onDelta(text, at) {
      received.set(text, at);
      if (received.size === expected) resolve();
    },
  };
}

const lastOf = (received: Map<string, number>) => Math.max(...received.values());

async function wsRound(
  h: Harness,
  probe: WsProbe,
  round: number,
  blocks: number,
  delayMs: number,
): Promise<Round> {
  const { sessionId } = await h.newSession();
  await probe.subscribe(sessionId);
  const expected = blocks * CHUNKS_PER_BLOCK;
  const c = collector(expected);
  probe.onDelta = c.onDelta;
  let started = Number.NaN;
  h.model.enqueue(timedReply(textBlocks(round, blocks), delayMs, (at) => (started = at)));
  const turn = await h.startTurn(sessionId, 'stream please', `bench-${round}`);
  await withTimeout(c.done, `${expected} deltas over the WebSocket`);
  probe.onDelta = null;
  const ended = await h.waitForTurnEnd(turn.id);
  if (ended.status !== 'completed')
    throw new Error(`bench turn ended ${ended.status}: ${JSON.stringify(ended.error)}`);
  return { totalMs: lastOf(c.received) - started, received: c.received };
}

async function sseRound(h: Harness, round: number, blocks: number, delayMs: number): Promise<Round> {
  const expected = blocks * CHUNKS_PER_BLOCK;
  const c = collector(expected);
  let started = Number.NaN;
  h.model.enqueue(timedReply(textBlocks(round, blocks), delayMs, (at) => (started = at)));
  await withTimeout(readSse(h.model.url, c.onDelta), 'the SSE stream');
  if (c.received.size !== expected) throw new Error(`SSE gave ${c.received.size} of ${expected} deltas`);
  return { totalMs: lastOf(c.received) - started, received: c.received };
}

function latencies(writes: Map<string, number>, received: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [text, at] of received) {
    const written = writes.get(text);
    if (written === undefined) throw new Error(`no write recorded for delta ${text}`);
    out.push(at - written);
  }
  return out;
}

export interface StreamingOptions {
  /** unpaced rounds: the model server writes every event at once */
  rounds: number;
  blocks: number;
  /** paced rounds: delayMs between SSE events, latency per delta */
  pacedRounds: number;
  pacedBlocks: number;
  pacedDelayMs: number;
}

/** (b) What the sidecar adds to each streamed model event on its way to a WebSocket client. */
export async function benchStreaming(h: Harness, o: StreamingOptions): Promise<Row[]> {
  const probe = await WsProbe.connect(h.server.url, h.server.token);
  let round = 0;
  try {
    // Warm-up, unmeasured: the first turn loads the SDK paths, the system prompt, the statements.
    await wsRound(h, probe, round++, o.blocks, 0);
    await sseRound(h, round++, o.blocks, 0);

    const wsTotals: number[] = [];
    const sseTotals: number[] = [];
    for (let i = 0; i < o.rounds; i++) {
      sseTotals.push((await sseRound(h, round++, o.blocks, 0)).totalMs);
      wsTotals.push((await wsRound(h, probe, round++, o.blocks, 0)).totalMs);
    }

    const writes = new Map<string, number>();
    const restore = recordModelWrites(writes);
    const wsLatency: number[] = [];
    const sseLatency: number[] = [];
    try {
      for (let i = 0; i < o.pacedRounds; i++) {
        sseLatency.push(
          ...latencies(writes, (await sseRound(h, round++, o.pacedBlocks, o.pacedDelayMs)).received),
        );
        wsLatency.push(
          ...latencies(writes, (await wsRound(h, probe, round++, o.pacedBlocks, o.pacedDelayMs)).received),
        );
      }
    } finally {
      restore();
    }

    const n = o.blocks * CHUNKS_PER_BLOCK;
    const ws = median(wsTotals);
    const sse = median(sseTotals);
    const section = '(b) streamed model events → client';
    const pacedNote = `${o.pacedRounds}×${o.pacedBlocks * CHUNKS_PER_BLOCK} deltas, ${o.pacedDelayMs} ms between SSE events`;
    return [
      {
        section,
        what: `burst of ${n} deltas: first write → last delta`,
        value: ms(ws, 1),
        reference: ms(sse, 1),
        ratio: ratio(ws, sse),
        note: `median of ${o.rounds}; subject: sidecar → WebSocket; reference: direct SSE over HTTP`,
      },
      {
        section,
        what: 'added per event, (ws − sse) / N',
        value: us((ws - sse) / n),
        note: 'throughput cost: SDK parse + journal INSERT + WS frame + client parse',
      },
      {
        section,
        what: 'paced: model write → client receipt, p50',
        value: ms(median(wsLatency)),
        reference: ms(median(sseLatency)),
        ratio: ratio(median(wsLatency), median(sseLatency)),
        note: pacedNote,
      },
      {
        section,
        what: 'paced: model write → client receipt, p95',
        value: ms(percentile(wsLatency, 95)),
        reference: ms(percentile(sseLatency, 95)),
        ratio: ratio(percentile(wsLatency, 95), percentile(sseLatency, 95)),
      },
      {
        section,
        what: 'paced: added latency per event, p50',
        value: us(median(wsLatency) - median(sseLatency)),
        note: 'write times from a wrapper on http.ServerResponse#write in this process',
      },
    ];
  } finally {
    probe.close();
  }
}
