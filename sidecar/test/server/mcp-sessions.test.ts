import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandLine } from '../../src/mcp/command-line';
import type { McpServer, McpSessionStatus, Question, Turn } from '../../src/protocol';
import { startEverythingHttp } from '../mcp/support/mcp-servers';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import { useKeyringInProcess } from '../support/keyring-in-process';
import { isProcessGone, waitFor } from '../tools/tool-context';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ENV_CHECK = path.join(root, 'sidecar/test/mcp/fixtures/env-check-server.mjs');
const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECRET = 'mcp-session-secret-0a1b2c3d4e5f6789';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type ErrorBody = { error: { code: string; message: string } };

/** The tool_result contents the model was sent in request `i` (its last message). */
function toolResults(h: Harness, i: number): { content: string; is_error?: boolean }[] {
  const last = h.model.requests[i]!.body.messages.at(-1)!;
  return (last.content as { type: string; content: string; is_error?: boolean }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ content: b.content, ...(b.is_error ? { is_error: true } : {}) }));
}

describe('MCP servers in sessions (real sidecar, real servers, the agent loop through the test model)', () => {
  useKeyringInProcess();
  let h: Harness;
  let checkId: string;

  beforeAll(async () => {
    h = await startHarness({ env: { MCP_TEST_SHARED_VAR: 'from-the-sidecar-env' } });
  });
  afterAll(async () => h?.close());

  const addServer = async (body: Record<string, unknown>): Promise<McpServer> => {
    const res = await h.api<McpServer & ErrorBody>('POST', '/api/mcp/servers', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const enable = (id: string, enabled = true) => h.api('PATCH', `/api/mcp/servers/${id}`, { enabled });
  const status = async (sessionId: string) =>
    (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
  const runTurn = async (sessionId: string, prompt: string): Promise<Turn> => {
    const turn = await h.startTurn(sessionId, prompt);
    return h.waitForTurnEnd(turn.id);
  };
  const agentName = (s: McpSessionStatus, server: string, tool: string) =>
    s.servers.find((x) => x.name === server)!.tools.find((t) => t.name === tool)!.agent_name;

  it('gives the agent a server’s tools, with env references and secrets resolved and the project as folder', async () => {
    const server = await addServer({
      name: 'env-check',
      transport: 'stdio',
      command: formatCommandLine(process.execPath, [ENV_CHECK]),
      env: { API_KEY: { secret: true }, FROM_ENV: { env: 'MCP_TEST_SHARED_VAR' }, PLAIN: 'literal' },
    });
    checkId = server.id;
    await h.api('PUT', `/api/mcp/servers/${checkId}/secrets`, { API_KEY: SECRET });
    await enable(checkId);

    const { sessionId } = await h.newSession();
    expect((await status(sessionId)).snapshot_at).toBeNull();
    h.model.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    expect((await runTurn(sessionId, 'hi')).status).toBe('completed');

    const first = await status(sessionId);
    expect(first.snapshot_at).not.toBeNull();
    // The start-up showed as it went, on the journal, as part of the turn.
    const progress = (await h.events(sessionId)).filter((e) => e.type === 'mcp.server');
    expect(progress.map((e) => e.type === 'mcp.server' && [e.name, e.state, e.tools])).toEqual([
      ['env-check', 'connecting', 0],
      ['env-check', 'connected', 4],
    ]);
    expect(progress.every((e) => e.turn_id !== null)).toBe(true);
    expect(first.servers).toMatchObject([{ name: 'env-check', state: 'connected', error: null }]);
    const tools = first.servers[0]!.tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['cwd', 'echo', 'env_digest', 'pid']);
    for (const t of tools) {
      expect(t.agent_name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(t.agent_name).toContain(t.name.replace(/[^a-zA-Z0-9_-]/g, '_'));
    }
    // The model saw them, by their agent names, with the server's input schema.
    const offered = h.model.requests[0]!.body.tools!.map((t) => t.name);
    for (const t of tools) expect(offered).toContain(t.agent_name);

    const digest = agentName(first, 'env-check', 'env_digest');
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: digest, input: { name: 'API_KEY' } },
          { type: 'tool_use', name: digest, input: { name: 'FROM_ENV' } },
          { type: 'tool_use', name: digest, input: { name: 'PLAIN' } },
          { type: 'tool_use', name: digest, input: { name: 'CAIRN_TOKEN' } },
          { type: 'tool_use', name: agentName(first, 'env-check', 'cwd'), input: {} },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await runTurn(sessionId, 'check the server')).status).toBe('completed');
    const results = toolResults(h, h.model.requests.length - 1).map((r) => r.content);
    expect(results).toEqual([
      sha256(SECRET),
      sha256('from-the-sidecar-env'),
      sha256('literal'),
      'unset', // Cairn's own secrets do not reach the server
      fs.realpathSync(h.projectDir),
    ]);
  });

  it('keeps the snapshot: later changes reach only sessions not yet run, until a reset', async () => {
    const { sessionId: ran } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(ran, 'first');
    const pid = Number(await callTool(ran, 'pid'));
    expect(pid).toBeGreaterThan(0);

    const { sessionId: fresh } = await h.newSession();
    await enable(checkId, false);

    // The session that ran keeps the server, and its connection (the same process) across turns.
    expect(Number(await callTool(ran, 'pid'))).toBe(pid);
    // A session that had not run takes the configuration as it is at its first run: no server.
    h.model.enqueue({ content: [{ type: 'text', text: 'no tools' }] });
    await runTurn(fresh, 'first');
    expect(h.model.requests.at(-1)!.body.tools!.some((t) => t.name.includes('env_digest'))).toBe(false);
    expect((await status(fresh)).servers).toEqual([]);

    // A reset stops the connection now (no turn runs) and loads the configuration before the next message.
    const reset = await h.api<McpSessionStatus>('POST', `/api/sessions/${ran}/mcp/reset`);
    expect(reset.body.reset_pending).toBe(true);
    await waitFor(() => isProcessGone(pid));
    const turnsBefore = (await h.api<{ turns: unknown[] }>('GET', `/api/sessions/${ran}/turns`)).body.turns
      .length;
    h.model.enqueue({ content: [{ type: 'text', text: 'after reset' }] });
    await runTurn(ran, 'again');
    expect(await status(ran)).toMatchObject({ reset_pending: false, servers: [] });
    // History is kept.
    const turnsAfter = (await h.api<{ turns: unknown[] }>('GET', `/api/sessions/${ran}/turns`)).body.turns
      .length;
    expect(turnsAfter).toBe(turnsBefore + 1);
    await enable(checkId);
  });

  it('asks before an MCP tool in "ask" mode', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(sessionId, 'first');
    const echo = agentName(await status(sessionId), 'env-check', 'echo');
    const { turn, questions } = await echoAwaitingApproval(sessionId, echo, 'hi');
    expect(questions[0]).toMatchObject({ kind: 'approval', tool: { name: echo } });
    await h.api('POST', `/api/questions/${questions[0]!.id}/answer`, { answer: 'allow' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(toolResults(h, h.model.requests.length - 1)).toEqual([{ content: 'echo: hi' }]);
  });

  it('a reset during a running turn leaves that turn its tools; the next message loads the configuration', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(sessionId, 'first');
    const before = await status(sessionId);
    const echo = agentName(before, 'env-check', 'echo');
    // The approval question holds the turn while the reset comes.
    const { turn, questions } = await echoAwaitingApproval(sessionId, echo, 'mid-turn');
    const reset = await h.api<McpSessionStatus>('POST', `/api/sessions/${sessionId}/mcp/reset`);
    expect(reset.body.reset_pending).toBe(true);
    expect(reset.body.servers.find((x) => x.name === 'env-check')?.state).toBe('connected');
    await h.api('POST', `/api/questions/${questions[0]!.id}/answer`, { answer: 'allow' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(toolResults(h, h.model.requests.length - 1)).toEqual([{ content: 'echo: mid-turn' }]);

    h.model.enqueue({ content: [{ type: 'text', text: 'reloaded' }] });
    await runTurn(sessionId, 'next');
    const after = await status(sessionId);
    expect(after.reset_pending).toBe(false);
    expect(after.snapshot_at! > before.snapshot_at!).toBe(true);
  });

  it('names same-named tools of two servers apart, and saves an image result to mcp_result.json', async () => {
    const everything = await addServer({
      name: 'everything',
      transport: 'stdio',
      command: formatCommandLine(process.execPath, [EVERYTHING, 'stdio']),
    });
    await enable(everything.id);
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(sessionId, 'first');
    const s = await status(sessionId);
    const echoA = agentName(s, 'env-check', 'echo');
    const echoB = agentName(s, 'everything', 'echo');
    expect(echoA).not.toBe(echoB);
    const all = s.servers.flatMap((x) => x.tools.map((t) => t.agent_name));
    expect(new Set(all).size).toBe(all.length);

    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: echoA, input: { text: 'from A' } },
          { type: 'tool_use', name: echoB, input: { message: 'from B' } },
          { type: 'tool_use', name: agentName(s, 'everything', 'get-tiny-image'), input: {} },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await runTurn(sessionId, 'use both')).status).toBe('completed');
    const [a, b, image] = toolResults(h, h.model.requests.length - 1);
    expect(a!.content).toBe('echo: from A');
    expect(b!.content).toContain('from B');
    expect(image!.content).toContain('mcp_result.json');

    const imageCall = h.server.core.store.db
      .prepare('SELECT id FROM tool_calls WHERE session_id = ? AND name = ?')
      .get(sessionId, agentName(s, 'everything', 'get-tiny-image')) as { id: string };
    // The server's content is the user's: owner-only whatever the umask (see data-dir-permissions.test.ts).
    const callDir = path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', imageCall.id);
    expect(fs.statSync(path.join(callDir, 'mcp_result.json')).mode & 0o077).toBe(0);
    const download = await fetch(`${h.server.url}/api/tool-calls/${imageCall.id}/mcp-result`, {
      headers: { authorization: `Bearer ${h.server.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('mcp_result.json');
    const saved = (await download.json()) as {
      content: { type: string; mimeType?: string; data?: string }[];
    };
    const png = saved.content.find((c) => c.type === 'image')!;
    expect(png.mimeType).toBe('image/png');
    expect(Buffer.from(png.data!, 'base64').subarray(0, 4).toString('hex')).toBe('89504e47');
    await enable(everything.id, false);
  });

  it('a server that fails to connect: the session goes on, or is blocked when the server says so', async () => {
    const broken = await addServer({
      name: 'broken',
      transport: 'stdio',
      command: '/nonexistent/mcp-server --stdio',
    });
    await enable(broken.id);
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'still here' }] });
    expect((await runTurn(sessionId, 'hi')).status).toBe('completed');
    const s = await status(sessionId);
    const failed = s.servers.find((x) => x.name === 'broken')!;
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/nonexistent/);
    expect(s.servers.find((x) => x.name === 'env-check')!.state).toBe('connected');

    await h.api('PATCH', `/api/mcp/servers/${broken.id}`, { block_on_failure: true });
    const { sessionId: blocked } = await h.newSession();
    const turn = await runTurn(blocked, 'hi');
    expect(turn.status).toBe('failed');
    expect(turn.error).toMatchObject({ code: 'mcp_unavailable' });
    expect(turn.error!.message).toMatch(/"broken" must connect/);
    await h.api('DELETE', `/api/mcp/servers/${broken.id}`);
  });

  it('works the same over Streamable HTTP (server-everything on 127.0.0.1)', async () => {
    const http = await startEverythingHttp();
    try {
      const server = await addServer({
        name: 'everything-http',
        transport: 'streamable_http',
        url: http.url,
      });
      const tested = await h.api<{ tools: { name: string }[] }>('POST', `/api/mcp/servers/${server.id}/test`);
      expect(tested.body.tools.map((t) => t.name)).toContain('get-sum');
      await enable(server.id);
      const { sessionId } = await h.newSession();
      h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
      await runTurn(sessionId, 'first');
      const s = await status(sessionId);
      expect(s.servers.find((x) => x.name === 'everything-http')).toMatchObject({
        transport: 'streamable_http',
        state: 'connected',
      });
      h.model.enqueue(
        {
          content: [
            { type: 'tool_use', name: agentName(s, 'everything-http', 'get-sum'), input: { a: 2, b: 40 } },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      );
      expect((await runTurn(sessionId, 'add')).status).toBe('completed');
      expect(toolResults(h, h.model.requests.length - 1)[0]!.content).toContain('42');
      await enable(server.id, false);
      await h.api('DELETE', `/api/sessions/${sessionId}`);
    } finally {
      await http.stop();
    }
  });

  it('stops a session’s servers when the session is deleted, and all of them when Cairn stops', async () => {
    const { sessionId: doomed } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(doomed, 'first');
    const pid = Number(await callTool(doomed, 'pid'));
    expect((await h.api('DELETE', `/api/sessions/${doomed}`)).status).toBe(204);
    await waitFor(() => isProcessGone(pid));

    const { sessionId: kept } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await runTurn(kept, 'first');
    const keptPid = Number(await callTool(kept, 'pid'));
    await h.server.stop();
    expect(isProcessGone(keptPid)).toBe(true);
    for (const file of allFiles(h.dataDir)) {
      expect(fs.readFileSync(file).includes(SECRET), `${file} holds the secret`).toBe(false);
    }
    await h.restart();
  });

  /** Starts a turn in which the model calls `echo`, and returns once its approval question is pending. */
  async function echoAwaitingApproval(sessionId: string, echo: string, text: string) {
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: echo, input: { text } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'echo');
    let questions: Question[] = [];
    await waitFor(async () => {
      questions = (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body
        .questions;
      return questions.length === 1;
    });
    return { turn, questions };
  }

  /** Has the model call one env-check tool in its own turn and returns the text result. */
  async function callTool(sessionId: string, tool: string): Promise<string> {
    const name = agentName(await status(sessionId), 'env-check', tool);
    h.model.enqueue(
      { content: [{ type: 'tool_use', name, input: {} }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await runTurn(sessionId, `call ${tool}`)).status).toBe('completed');
    return toolResults(h, h.model.requests.length - 1)[0]!.content;
  }
});
