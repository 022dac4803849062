import Anthropic, {
  APIError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  OverloadedError,
} from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from './support/model-server';

const MODEL = 'cairn-test-model';

const servers: ModelServer[] = [];

async function setup(opts?: { requireKey?: string }): Promise<{ server: ModelServer; client: Anthropic }> {
  const server = await startModelServer(opts);
  servers.push(server);
  const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  return { server, client };
}

const params = {
  model: MODEL,
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'hello' }],
};

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('model-server', () => {
  it('streams text deltas and a final message with stop_reason and usage', async () => {
    const { server, client } = await setup();
    server.enqueue({
      content: [{ type: 'text', text: 'Hello there, streaming world!' }],
      usage: { input_tokens: 12, output_tokens: 7 },
    });

    const stream = client.messages.stream({ ...params, system: 'be brief' });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello there, streaming world!');
    expect(final.id).toMatch(/^msg_/);
    expect(final.model).toBe(MODEL);
    expect(final.role).toBe('assistant');
    expect(final.content).toEqual([{ type: 'text', text: 'Hello there, streaming world!' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toEqual({
      input_tokens: 12,
      output_tokens: 7,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    expect(req.body.model).toBe(MODEL);
    expect(req.body.stream).toBe(true);
    expect(req.body.system).toBe('be brief');
    expect(req.body.messages).toEqual(params.messages);
    expect(server.openStreams()).toBe(0);
  });

  it('streams raw SSE events in protocol order', async () => {
    const { server, client } = await setup();
    server.enqueue({ content: [{ type: 'text', text: 'abc' }] });
    const stream = await client.messages.create({ ...params, stream: true });
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(1, 2)).toEqual(['content_block_start']);
    expect(types.at(-3)).toBe('content_block_stop');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('delivers a tool_use block parsed in finalMessage, with a generated id', async () => {
    const { server, client } = await setup();
    const input = { path: 'src/index.ts', lines: [1, 2, 3], opts: { recursive: true, note: 'héllo 🌍' } };
    server.enqueue({
      content: [
        { type: 'text', text: 'Let me read that.' },
        { type: 'tool_use', name: 'read_file', input },
      ],
    });

    const stream = client.messages.stream({
      ...params,
      tools: [{ name: 'read_file', input_schema: { type: 'object' } }],
    });
    const partials: string[] = [];
    stream.on('inputJson', (p) => partials.push(p));
    const final = await stream.finalMessage();

    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toHaveLength(2);
    const tool = final.content[1]!;
    expect(tool.type).toBe('tool_use');
    if (tool.type !== 'tool_use') throw new Error('unreachable');
    expect(tool.id).toMatch(/^toolu_/);
    expect(tool.name).toBe('read_file');
    expect(tool.input).toEqual(input);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.join('')).toBe(JSON.stringify(input));
    expect(server.requests[0]!.body.tools).toEqual([{ name: 'read_file', input_schema: { type: 'object' } }]);
  });

  it('cuts a truncated tool_use short and reports max_tokens', async () => {
    const { server, client } = await setup();
    const input = { content: 'a fairly long file body that will be cut off' };
    server.enqueue({
      content: [{ type: 'tool_use', id: 'toolu_fixed', name: 'write_file', input, truncate: true }],
      stop_reason: 'max_tokens',
    });

    const stream = client.messages.stream(params);
    const partials: string[] = [];
    stream.on('inputJson', (p) => partials.push(p));
    const final = await stream.finalMessage();

    expect(final.stop_reason).toBe('max_tokens');
    const tool = final.content[0]!;
    if (tool.type !== 'tool_use') throw new Error(`expected tool_use, got ${tool.type}`);
    expect(tool.id).toBe('toolu_fixed');
    const sent = partials.join('');
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(input).startsWith(sent)).toBe(true);
    expect(sent).not.toBe(JSON.stringify(input));
    expect(() => JSON.parse(sent)).toThrow();
  });

  it('defaults stop_reason to max_tokens for a truncated tool_use', async () => {
    const { server, client } = await setup();
    server.enqueue({ content: [{ type: 'tool_use', name: 'x', input: { a: 'bcdefgh' }, truncate: true }] });
    const final = await client.messages.stream(params).finalMessage();
    expect(final.stop_reason).toBe('max_tokens');
  });

  it('streams a thinking block with its signature', async () => {
    const { server, client } = await setup();
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'The user greets me; I should greet back.', signature: 'sig-abc' },
        { type: 'text', text: 'Hi!' },
      ],
    });

    const stream = client.messages.stream({ ...params, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const thoughts: string[] = [];
    stream.on('thinking', (t) => thoughts.push(t));
    const final = await stream.finalMessage();

    expect(thoughts.join('')).toBe('The user greets me; I should greet back.');
    expect(final.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user greets me; I should greet back.',
      signature: 'sig-abc',
    });
    expect(final.content[1]).toEqual({ type: 'text', text: 'Hi!' });
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('answers a non-streaming request with a JSON message', async () => {
    const { server, client } = await setup();
    server.enqueue({
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_use', name: 'ls', input: { dir: '.' } },
      ],
    });
    const msg = await client.messages.create(params);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content[0]).toEqual({ type: 'text', text: 'ok' });
    expect(msg.content[1]).toMatchObject({ type: 'tool_use', name: 'ls', input: { dir: '.' } });
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    expect(server.requests[0]!.body.stream).toBeUndefined();
  });

  it('surfaces an http_error 529 as OverloadedError with status and request id', async () => {
    const { server, client } = await setup();
    server.enqueue({
      kind: 'http_error',
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'x-should-retry': 'false' },
    });

    const err = await client.messages
      .stream(params)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverloadedError);
    expect(err).toBeInstanceOf(InternalServerError);
    const apiErr = err as APIError;
    expect(apiErr.status).toBe(529);
    expect(apiErr.type).toBe('overloaded_error');
    expect(apiErr.apiMessage).toBe('Overloaded');
    expect(apiErr.requestID).toMatch(/^req_/);
  });

  it('lets the SDK retry when told to, recording both attempts', async () => {
    const { server } = await setup();
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 1 });
    server.enqueue(
      {
        kind: 'http_error',
        status: 429,
        type: 'rate_limit_error',
        message: 'slow down',
        headers: { 'retry-after-ms': '1' },
      },
      { content: [{ type: 'text', text: 'second time lucky' }] },
    );
    const final = await client.messages.stream(params).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'second time lucky' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('surfaces a stream_error as an APIError thrown during iteration', async () => {
    const { server, client } = await setup();
    server.enqueue({
      kind: 'stream_error',
      content: [{ type: 'text', text: 'partial answer' }],
      type: 'overloaded_error',
      message: 'Overloaded',
    });

    const stream = client.messages.stream(params);
    const texts: string[] = [];
    let thrown: unknown;
    try {
      for await (const ev of stream) {
        if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') texts.push(ev.delta.text);
      }
    } catch (e) {
      thrown = e;
    }

    expect(texts.join('')).toBe('partial answer');
    expect(thrown).toBeInstanceOf(APIError);
    const apiErr = thrown as APIError;
    // Mid-stream errors carry no HTTP status (the response was a 200).
    expect(apiErr.status).toBeUndefined();
    expect(apiErr.type).toBe('overloaded_error');
    expect(apiErr.apiMessage).toBe('Overloaded');
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIError);
  });

  it('sees the API key, and requireKey rejects a wrong one', async () => {
    const { server, client } = await setup({ requireKey: 'test-key' });
    server.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await client.messages.stream(params).finalMessage();
    const req = server.requests[0]!;
    expect(req.apiKey).toBe('test-key');
    // SDK 1.x sends the apiKey as a Bearer token rather than x-api-key.
    expect(req.headers.authorization ?? req.headers['x-api-key']).toMatch(/test-key$/);

    const wrong = new Anthropic({ apiKey: 'wrong-key', baseURL: server.url, maxRetries: 0 });
    server.enqueue({ content: [{ type: 'text', text: 'never sent' }] });
    const err = await wrong.messages
      .stream(params)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as APIError).status).toBe(401);
    expect(server.requests[1]!.apiKey).toBe('wrong-key');

    // The rejected request did not use up the scripted reply.
    const final = await client.messages.stream(params).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'never sent' }]);
  });

  it('reads x-api-key when a client sends it', async () => {
    const { server } = await setup({ requireKey: 'header-key' });
    server.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const res = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'header-key' },
      body: JSON.stringify(params),
    });
    expect(res.status).toBe(200);
    expect(server.requests[0]!.apiKey).toBe('header-key');
  });

  it('ends a hanging stream when the client aborts, resolving waitForDisconnect', async () => {
    const { server, client } = await setup();
    server.enqueue({ content: [{ type: 'text', text: 'thinking about it' }], hang: true });

    const ac = new AbortController();
    const stream = client.messages.stream(params, { signal: ac.signal });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    await stream.emitted('contentBlock');
    expect(server.openStreams()).toBe(1);

    const disconnected = server.waitForDisconnect();
    ac.abort();
    await disconnected;
    expect(server.openStreams()).toBe(0);
    expect(texts.join('')).toBe('thinking about it');
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIUserAbortError);

    // The server is still fine afterwards.
    server.enqueue({ content: [{ type: 'text', text: 'still here' }] });
    const final = await client.messages.stream(params).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('survives a client abort in the middle of a slow stream', async () => {
    const { server, client } = await setup();
    server.enqueue({ content: [{ type: 'text', text: 'one two three four five six' }], delayMs: 20 });
    const stream = client.messages.stream(params);
    await stream.emitted('text');
    stream.abort();
    await server.waitForDisconnect();
    await expect(stream.done()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.openStreams()).toBe(0);
  });

  it('lets a handler decide from the request', async () => {
    const { server, client } = await setup();
    server.enqueue({
      kind: 'handler',
      handle: (req) => ({
        content: [{ type: 'text', text: `you said ${String(req.body.messages[0]!.content)}` }],
      }),
    });
    const final = await client.messages.stream(params).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'you said hello' }]);
  });

  it('answers an empty queue with a 500 api_error', async () => {
    const { server, client } = await setup();
    const err = await client.messages
      .stream(params)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).type).toBe('api_error');
    expect((err as APIError).message).toContain('model-server: no scripted reply left');
    expect(server.requests).toHaveLength(1);
  });

  it('waitForRequests resolves once enough requests have arrived', async () => {
    const { server, client } = await setup();
    server.enqueue({ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] });
    const waited = server.waitForRequests(2);
    await client.messages.stream(params).finalMessage();
    await client.messages.stream(params).finalMessage();
    await waited;
    await server.waitForRequests(1);
    expect(server.requests).toHaveLength(2);
  });

  it('close() tears down a hanging stream', async () => {
    const server = await startModelServer();
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    server.enqueue({ content: [], hang: true });
    const stream = client.messages.stream(params);
    await stream.emitted('connect');
    await server.close();
    expect(server.openStreams()).toBe(0);
    await expect(stream.done()).rejects.toBeInstanceOf(Error);
  });
});
