// A scripted stand-in for the Anthropic Messages API on loopback, so tests drive the real SDK end to end.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnFreePort } from './loopback-server';
import { type CacheUsage, MAX_BREAKPOINTS, PromptCache } from './prompt-cache';

export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | {
      type: 'tool_use';
      id?: string;
      name: string;
      input: unknown;
      /** stream only the first part of the input JSON (simulates a max_tokens cut inside a tool call) */
      truncate?: boolean;
    };

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn';

export type ScriptedReply =
  | {
      kind?: 'message';
      content: ScriptedBlock[];
      /** default: 'max_tokens' if a tool_use is truncated, else 'tool_use' if any tool_use, else 'end_turn' */
      stop_reason?: StopReason;
      /** With stop_reason 'stop_sequence': which sequence was hit (as the API reports it); default null. */
      stop_sequence?: string;
      /**
       * defaults: input ≈ request body length / 4, split by the prompt cache into read, written and the rest;
       * output ≈ generated characters / 4 (at least 1). A scripted input_tokens bypasses the cache.
       */
      usage?: {
        input_tokens?: number;
        output_tokens?: number;
        cache_read_input_tokens?: number;
        cache_creation_input_tokens?: number;
      };
      /** delay between SSE events, ms (default 0) */
      delayMs?: number;
      /** after sending the blocks, keep the stream open without message_stop until the client disconnects */
      hang?: boolean;
      /** after sending the blocks, end the connection without message_stop (a connection dropped mid-answer) */
      drop?: boolean;
    }
  | { kind: 'http_error'; status: number; type: string; message: string; headers?: Record<string, string> }
  /** 200 + the blocks, then an SSE `event: error` (a non-streaming request gets the matching HTTP error) */
  | { kind: 'stream_error'; content?: ScriptedBlock[]; type: string; message: string }
  /** decide from the request (may be async, e.g. to wait on something the test controls) */
  | { kind: 'handler'; handle: (req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply> };

export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system?: unknown;
  messages: { role: 'user' | 'assistant'; content: unknown }[];
  tools?: { name: string; description?: string; input_schema: unknown }[];
  stream?: boolean;
  thinking?: unknown;
  [k: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  /** the request target as sent, including any query string */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: MessagesRequestBody;
  /** from `x-api-key`, else from `Authorization: Bearer …` (SDK 1.x sends the apiKey as Bearer) */
  apiKey: string | null;
}

export interface ModelServer {
  /** e.g. http://127.0.0.1:PORT — the SDK baseURL */
  url: string;
  requests: RecordedRequest[];
  /** The prompt cache the server keeps across requests (its totals give a hit ratio). */
  cache: PromptCache;
  enqueue(...replies: ScriptedReply[]): void;
  /** resolves when at least n requests have arrived */
  waitForRequests(n: number): Promise<void>;
  /** number of currently open streaming (or hanging) responses */
  openStreams(): number;
  /**
   * The k-th call resolves once k streams have been cut by their client before the server finished them
   * (so it works whether called before or after the disconnect).
   */
  waitForDisconnect(): Promise<void>;
  /** destroys open sockets, then stops listening */
  close(): Promise<void>;
}

interface SseEvent {
  name: string;
  data: Record<string, unknown>;
}

// A scripted reply resolved to something the server can send.
type FinalReply = Exclude<ScriptedReply, { kind: 'handler' }>;
type StreamReply = Exclude<FinalReply, { kind: 'http_error' }>;

const TEXT_CHUNKS = 4;
const MAX_HANDLER_DEPTH = 10;

// Status codes the API uses for each error type, for stream errors asked of a non-streaming request.
const STATUS_FOR_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Looks like the API's ids (prefix + `01` + base62), which some code may pattern-match.
function makeId(prefix: string): string {
  const bytes = randomBytes(22);
  let out = `${prefix}_01`;
  for (const b of bytes) out += ALPHANUM[b % ALPHANUM.length];
  return out;
}

// Split by code point so multi-unit characters never straddle two deltas.
function chunk(text: string, parts: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.max(1, Math.ceil(chars.length / parts));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function toolJson(block: Extract<ScriptedBlock, { type: 'tool_use' }>): string {
  const full = JSON.stringify(block.input ?? {});
  if (!block.truncate) return full;
  // Strictly shorter than the whole so the JSON is always incomplete.
  return full.slice(0, Math.max(1, Math.floor(full.length / 2)));
}

function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

function outputChars(blocks: ScriptedBlock[]): number {
  let n = 0;
  for (const b of blocks) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'thinking') n += b.thinking.length;
    else n += toolJson(b).length;
  }
  return n;
}

function defaultStopReason(blocks: ScriptedBlock[]): StopReason {
  if (blocks.some((b) => b.type === 'tool_use' && b.truncate)) return 'max_tokens';
  if (blocks.some((b) => b.type === 'tool_use')) return 'tool_use';
  return 'end_turn';
}

// Fills in ids once so the streamed and the non-streamed forms agree.
function withIds(blocks: ScriptedBlock[]): ScriptedBlock[] {
  return blocks.map((b) => {
    if (b.type === 'tool_use') return { ...b, id: b.id ?? makeId('toolu') };
    if (b.type === 'thinking') return { ...b, signature: b.signature ?? randomBytes(48).toString('base64') };
    return b;
  });
}

function blockEvents(block: ScriptedBlock, index: number): SseEvent[] {
  const start = (content_block: Record<string, unknown>): SseEvent => ({
    name: 'content_block_start',
    data: { type: 'content_block_start', index, content_block },
  });
  const delta = (d: Record<string, unknown>): SseEvent => ({
    name: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta: d },
  });
  const events: SseEvent[] = [];
  if (block.type === 'text') {
    events.push(start({ type: 'text', text: '' }));
    for (const text of chunk(block.text, TEXT_CHUNKS)) events.push(delta({ type: 'text_delta', text }));
  } else if (block.type === 'thinking') {
    events.push(start({ type: 'thinking', thinking: '', signature: '' }));
    for (const thinking of chunk(block.thinking, TEXT_CHUNKS)) {
      events.push(delta({ type: 'thinking_delta', thinking }));
    }
    events.push(delta({ type: 'signature_delta', signature: block.signature ?? '' }));
  } else {
    events.push(start({ type: 'tool_use', id: block.id, name: block.name, input: {} }));
    for (const partial_json of chunk(toolJson(block), TEXT_CHUNKS)) {
      events.push(delta({ type: 'input_json_delta', partial_json }));
    }
  }
  events.push({ name: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return events;
}

function messageBlock(block: ScriptedBlock): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'thinking')
    return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  // A cut-off tool call has no parseable input; the accumulated streaming form is the faithful one.
  return {
    type: 'tool_use',
    id: block.id,
    name: block.name,
    input: block.truncate ? {} : (block.input ?? {}),
  };
}

function errorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

function bearer(value: string | undefined): string | null {
  const m = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
  return m ? m[1]!.trim() : null;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startModelServer(
  opts: {
    requireKey?: string /** the shortest prefix cached (default 1024 tokens, as the API) */;
    cacheMinTokens?: number;
  } = {},
): Promise<ModelServer> {
  const cache = new PromptCache(opts.cacheMinTokens);
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const openResponses = new Set<ServerResponse>();
  let disconnects = 0;
  let disconnectWaits = 0;
  let closing = false;
  let requestWaiters: { n: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  let disconnectWaiters: { n: number; resolve: () => void; reject: (e: Error) => void }[] = [];

  const settleWaiters = (): void => {
    requestWaiters = requestWaiters.filter((w) => {
      if (requests.length < w.n) return true;
      w.resolve();
      return false;
    });
    disconnectWaiters = disconnectWaiters.filter((w) => {
      if (disconnects < w.n) return true;
      w.resolve();
      return false;
    });
  };

  const sendJson = (
    res: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    if (res.destroyed) return;
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': makeId('req'),
      ...headers,
    });
    res.end(body);
  };

  // Tracks a response that stays open across events; returns a probe for whether the client is still there.
  const trackOpen = (res: ServerResponse): (() => boolean) => {
    let gone = false;
    openResponses.add(res);
    res.on('close', () => {
      gone = true;
      openResponses.delete(res);
      // Ended by us (or by close()) is not a disconnect.
      if (!res.writableEnded && !closing) disconnects++;
      settleWaiters();
    });
    return () => !gone && !res.destroyed && !res.writableEnded;
  };

  const sendStream = async (res: ServerResponse, reply: StreamReply, model: string, input: CacheUsage) => {
    const blocks = withIds(reply.content ?? []);
    const delayMs = reply.kind === 'stream_error' ? 0 : (reply.delayMs ?? 0);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': makeId('req'),
    });
    // Headers now, so a hanging or slow stream still connects on the client.
    res.flushHeaders();
    const alive = trackOpen(res);

    const events: SseEvent[] = [
      {
        name: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: makeId('msg'),
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...input, output_tokens: 1 },
          },
        },
      },
      { name: 'ping', data: { type: 'ping' } },
    ];
    blocks.forEach((b, i) => {
      events.push(...blockEvents(b, i));
    });
    let hang = false;
    const drop = reply.kind !== 'stream_error' && reply.drop === true;
    if (reply.kind === 'stream_error') {
      events.push({
        name: 'error',
        data: { type: 'error', error: { type: reply.type, message: reply.message } },
      });
    } else {
      hang = reply.hang === true;
      if (!hang && !drop) {
        const usage = reply.usage ?? {};
        events.push(
          {
            name: 'message_delta',
            data: {
              type: 'message_delta',
              delta: {
                stop_reason: reply.stop_reason ?? defaultStopReason(blocks),
                stop_sequence: reply.stop_sequence ?? null,
              },
              // As the API does today: the input counts again, beside the final output count.
              usage: { ...input, output_tokens: usage.output_tokens ?? estimateTokens(outputChars(blocks)) },
            },
          },
          { name: 'message_stop', data: { type: 'message_stop' } },
        );
      }
    }

    for (let i = 0; i < events.length; i++) {
      if (i > 0 && delayMs > 0) await sleep(delayMs);
      if (!alive()) return;
      const ev = events[i]!;
      res.write(`event: ${ev.name}\ndata: ${JSON.stringify(ev.data)}\n\n`);
    }
    if (drop) {
      // The connection ends without the rest of the chunked body: what was written arrives, then nothing.
      res.socket?.end();
      return;
    }
    // A hanging stream is ended by the client going away (or by close()).
    if (!hang && alive()) res.end();
  };

  const sendMessage = (res: ServerResponse, reply: FinalReply, model: string, input: CacheUsage) => {
    if (reply.kind === 'http_error') {
      sendJson(res, reply.status, errorBody(reply.type, reply.message), reply.headers);
      return;
    }
    if (reply.kind === 'stream_error') {
      sendJson(res, STATUS_FOR_ERROR_TYPE[reply.type] ?? 500, errorBody(reply.type, reply.message));
      return;
    }
    if (reply.hang) {
      // Nothing is ever sent; the response only ends when the client gives up.
      trackOpen(res);
      return;
    }
    const blocks = withIds(reply.content);
    sendJson(
      res,
      200,
      JSON.stringify({
        id: makeId('msg'),
        type: 'message',
        role: 'assistant',
        model,
        content: blocks.map(messageBlock),
        stop_reason: reply.stop_reason ?? defaultStopReason(blocks),
        stop_sequence: reply.stop_sequence ?? null,
        usage: {
          ...input,
          output_tokens: reply.usage?.output_tokens ?? estimateTokens(outputChars(blocks)),
        },
      }),
    );
  };

  const resolveReply = async (reply: ScriptedReply, recorded: RecordedRequest): Promise<FinalReply> => {
    let current = reply;
    for (let depth = 0; current.kind === 'handler'; depth++) {
      if (depth >= MAX_HANDLER_DEPTH) throw new Error('handler replies nested too deeply');
      current = await current.handle(recorded);
    }
    return current;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    const apiKey = headerValue(req.headers['x-api-key']) ?? bearer(headerValue(req.headers.authorization));
    let body: MessagesRequestBody;
    let parsed = true;
    try {
      body = JSON.parse(raw) as MessagesRequestBody;
    } catch {
      parsed = false;
      body = { model: '', max_tokens: 0, messages: [], unparsed: raw };
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers,
      body,
      apiKey,
    };
    requests.push(recorded);
    settleWaiters();

    // The server's own complaints say not to retry, so they fail fast and visibly even with SDK retries on.
    const noRetry = { 'x-should-retry': 'false' };
    if (opts.requireKey !== undefined && apiKey !== opts.requireKey) {
      sendJson(res, 401, errorBody('authentication_error', 'invalid x-api-key'), noRetry);
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || pathname !== '/v1/messages') {
      sendJson(
        res,
        404,
        errorBody('not_found_error', `model-server: no route ${req.method} ${pathname}`),
        noRetry,
      );
      return;
    }
    if (!parsed || typeof body !== 'object' || body === null) {
      sendJson(res, 400, errorBody('invalid_request_error', 'model-server: body is not JSON'), noRetry);
      return;
    }
    const next = queue.shift();
    if (!next) {
      sendJson(res, 500, errorBody('api_error', 'model-server: no scripted reply left'), noRetry);
      return;
    }
    let reply: FinalReply;
    try {
      reply = await resolveReply(next, recorded);
    } catch (e) {
      const message = `model-server: handler threw: ${e instanceof Error ? e.message : String(e)}`;
      sendJson(res, 500, errorBody('api_error', message), noRetry);
      return;
    }
    const model = typeof body.model === 'string' ? body.model : '';
    const breakpoints = PromptCache.breakpoints(body);
    if (breakpoints > MAX_BREAKPOINTS) {
      const message = `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
      sendJson(res, 400, errorBody('invalid_request_error', message), noRetry);
      return;
    }
    const scripted = reply.kind === 'message' || reply.kind === undefined ? reply.usage : undefined;
    const input: CacheUsage =
      scripted?.input_tokens !== undefined
        ? {
            input_tokens: scripted.input_tokens,
            cache_read_input_tokens: scripted.cache_read_input_tokens ?? 0,
            cache_creation_input_tokens: scripted.cache_creation_input_tokens ?? 0,
          }
        : cache.use(body, estimateTokens(raw.length));
    if (body.stream === true && reply.kind !== 'http_error') {
      await sendStream(res, reply, model, input);
    } else {
      sendMessage(res, reply, model, input);
    }
  };

  const server = createServer((req, res) => {
    // A client that vanishes mid-request or mid-stream must never take the server down.
    req.on('error', () => {});
    res.on('error', () => {});
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e: unknown) => {
        if (!res.headersSent) {
          sendJson(res, 500, errorBody('api_error', `model-server: ${String(e)}`), {
            'x-should-retry': 'false',
          });
        } else {
          res.destroy();
        }
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const port = await listenOnFreePort(server);

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cache,
    enqueue(...replies) {
      queue.push(...replies);
    },
    waitForRequests(n) {
      return new Promise((resolve, reject) => {
        requestWaiters.push({ n, resolve, reject });
        settleWaiters();
      });
    },
    openStreams() {
      return openResponses.size;
    },
    waitForDisconnect() {
      const n = ++disconnectWaits;
      return new Promise((resolve, reject) => {
        disconnectWaiters.push({ n, resolve, reject });
        settleWaiters();
      });
    },
    async close() {
      if (closing) return;
      closing = true;
      const closed = [
        new Promise<void>((resolve) => server.close(() => resolve())),
        // The server can report closed before each response's own 'close'; wait so openStreams() reads 0.
        ...[...openResponses].map((r) => new Promise<void>((resolve) => r.once('close', () => resolve()))),
      ];
      for (const s of sockets) s.destroy();
      await Promise.all(closed);
      const err = new Error('model-server: closed');
      for (const w of [...requestWaiters, ...disconnectWaiters]) w.reject(err);
      requestWaiters = [];
      disconnectWaiters = [];
    },
  };
}

/** The system prompt's text, whether the request sent it as a string or as text blocks. */
export function systemText(body: MessagesRequestBody): string {
  if (typeof body.system === 'string') return body.system;
  if (!Array.isArray(body.system)) return '';
  return body.system.map((block: { text?: string }) => block.text ?? '').join('');
}
