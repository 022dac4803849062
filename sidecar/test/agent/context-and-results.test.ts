import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Capabilities, ToolCallWithResult, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness, TEST_KEY } from '../support/harness';
import { systemText } from '../support/model-server';

describe('what the model is told', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('the system prompt names the project and includes its instruction file', async () => {
    h = await startHarness();
    fs.writeFileSync(path.join(h.projectDir, 'AGENTS.md'), 'Always answer in haiku.');
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'hi')).id);
    const system = systemText(h.model.requests[0]!.body);
    expect(system).toContain(h.projectDir);
    expect(system).toContain('Always answer in haiku.');
    expect(system).toContain('AGENTS.md');
  });

  it('a conversation without a project has no shell or file tools', async () => {
    h = await startHarness();
    const session = await h.api<{ id: string }>('POST', '/api/sessions', { title: 'chat' });
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(session.body.id, 'hi')).id);
    expect(h.model.requests[0]!.body.tools?.map((t) => t.name)).toEqual([
      'AskUserQuestion',
      'Context',
      'Fork',
      'ToolControl',
    ]);
  });

  it('thinking, when the config turns it on, is requested and streamed as thinking.delta', async () => {
    h = await startHarness();
    await h.api('POST', '/api/models', { name: 'thinker', model: 'cairn-test-model', thinking_budget: 2048 });
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      content: [
        { type: 'thinking', thinking: 'Let me consider this.', signature: 'sig-1' },
        { type: 'text', text: 'Answer.' },
      ],
    });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'think')).id);
    expect(h.model.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const thinking = (await h.events(sessionId)).filter((e) => e.type === 'thinking.delta');
    expect(thinking.map((e) => (e as { text: string }).text).join('')).toBe('Let me consider this.');
    // The signed thinking block stays in history for the next request.
    h.model.enqueue({ content: [{ type: 'text', text: 'again' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'more')).id);
    expect(h.model.requests[1]!.body.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'Let me consider this.', signature: 'sig-1' },
      { type: 'text', text: 'Answer.' },
    ]);
  });
});

describe('tool results', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a large result goes to a file: the model gets its path and a preview, and Read can read it', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'for i in $(seq 1 3000); do echo "line number $i of the output"; done' },
          },
        ],
      },
      {
        kind: 'handler',
        handle: (req) => {
          const result = JSON.stringify(req.body.messages.at(-1));
          const file = /saved to (\S+?\.txt)/.exec(result)?.[1];
          return {
            content: [
              { type: 'tool_use', name: 'Read', input: { path: file ?? 'missing', offset: 2999, limit: 2 } },
            ],
          };
        },
      },
      { content: [{ type: 'text', text: 'read it' }] },
    );
    const turn = await h.startTurn(sessionId, 'lots of output');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const toModel = JSON.stringify(h.model.requests[1]!.body.messages.at(-1));
    expect(toModel).toMatch(/too large to show in full/);
    expect(toModel).toContain('line number 1 of the output');
    expect(toModel).not.toContain('line number 3000 of');
    const readBack = JSON.stringify(h.model.requests[2]!.body.messages.at(-1));
    expect(readBack).toContain('line number 2999 of the output');
    expect(readBack).toContain('line number 3000 of the output');

    // The record and its full result through the API, and the files on disk.
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const bash = page.body.turns[0]!.tool_calls[0]!;
    const full = await h.api<ToolCallWithResult>('GET', `/api/tool-calls/${bash.id}`);
    expect(full.body.result).toContain('line number 3000 of the output');
    const dir = path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', bash.id);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'status.json'), 'utf8'))).toMatchObject({
      id: bash.id,
      status: 'completed',
    });
    expect(fs.readFileSync(path.join(dir, 'result.txt'), 'utf8')).toContain('line number 3000');
  });

  it('a child process inherits none of Cairn’s secrets', async () => {
    h = await startHarness({ env: { CAIRN_BACKEND_TOKEN: 'backend-token-abcdefgh' } });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'env' } }] },
      { content: [{ type: 'tool_use', name: 'Exec', input: { program: 'env', args: [] } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'env')).id);
    for (const request of h.model.requests.slice(1)) {
      const output = JSON.stringify(request.body.messages.at(-1));
      expect(output).toContain('PATH=');
      expect(output).not.toContain(h.server.token);
      expect(output).not.toContain(TEST_KEY);
      // Of Cairn's variables, only the way back to its tools: this call's endpoint and token.
      const names = [...output.matchAll(/(CAIRN_[A-Z_]+)=/g)].map((m) => m[1]).sort();
      expect(names).toEqual(['CAIRN_TOOL_ENDPOINT', 'CAIRN_TOOL_TOKEN']);
      expect(output).not.toContain('backend-token-abcdefgh');
    }
  });
});

describe('the process around the turns', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a restart keeps history, and the next turn sends it', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'remember: 42' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'remember a number')).id);
    const before = await h.events(sessionId);
    await h.restart();
    expect(await h.events(sessionId)).toEqual(before);
    h.model.enqueue({ content: [{ type: 'text', text: 'it was 42' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'which number?')).id);
    expect(JSON.stringify(h.model.requests[1]!.body.messages)).toContain('remember: 42');
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    expect(page.body.turns.map((t) => t.ordinal)).toEqual([1, 2]);
  });

  it('model requests go through HTTP_PROXY unless NO_PROXY names the host', async () => {
    const seen: string[] = [];
    // A tunnelling proxy (undici's proxy agent uses CONNECT) that records where it was asked to go.
    const proxy = http.createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, client: net.Socket, head: Buffer) => {
      seen.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const saved = {
      HTTP_PROXY: process.env.HTTP_PROXY,
      NO_PROXY: process.env.NO_PROXY,
      http_proxy: process.env.http_proxy,
      no_proxy: process.env.no_proxy,
    };
    // The proxy agent reads the environment of the process the sidecar runs in.
    process.env.HTTP_PROXY = proxyUrl;
    process.env.http_proxy = proxyUrl;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    try {
      const { createModelClient } = await import('../../src/agent/model-client');
      h = await startHarness();
      const settings = {
        configId: null,
        name: 't',
        model: 'cairn-test-model',
        baseUrl: h.model.url,
        apiKey: TEST_KEY,
        contextWindow: 1e5,
        maxTokens: 100,
        thinkingBudget: null,
        compactThreshold: null,
      };
      const client = createModelClient(settings, { maxRetries: 0 });
      h.model.enqueue({ content: [{ type: 'text', text: 'via proxy' }] });
      const message = await client.messages.create({
        model: 'cairn-test-model',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(message.content[0]).toMatchObject({ text: 'via proxy' });
      expect(seen).toEqual([h.model.url.replace('http://', '')]);

      process.env.NO_PROXY = '127.0.0.1';
      const direct = createModelClient(settings, { maxRetries: 0 });
      h.model.enqueue({ content: [{ type: 'text', text: 'direct' }] });
      await direct.messages.create({
        model: 'cairn-test-model',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(seen).toHaveLength(1);
      expect(h.model.requests).toHaveLength(2);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      proxy.close();
    }
  });
});

describe('conversation-only deployments', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('load no shell or file tools, refuse project routes, and say so in capabilities', async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: 'true' } });
    const caps = await h.api<Capabilities>('GET', '/api/capabilities');
    expect(caps.body).toMatchObject({
      mode: 'conversation-only',
      projects: false,
      shell: false,
      files: false,
    });
    expect((await h.api('GET', '/api/projects')).status).toBe(403);
    const refused = await h.api<{ error: { code: string } }>('POST', '/api/projects', { path: h.projectDir });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('conversation_only');
    const session = await h.api<{ id: string }>('POST', '/api/sessions', {});
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(session.body.id, 'hi')).id);
    expect(h.model.requests[0]!.body.tools?.map((t) => t.name)).toEqual([
      'AskUserQuestion',
      'Context',
      'Fork',
      'ToolControl',
    ]);
  });
});
