import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandLine } from '../../src/mcp/command-line';
import type { McpServer, McpSessionStatus, McpTestResult, Turn } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { isProcessGone, waitFor } from '../tools/tool-context';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BAD_SERVER = path.join(root, 'sidecar/test/mcp/fixtures/bad-server.mjs');
const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

type ErrorBody = { error: { code: string; message: string } };

/** The tool_result blocks the model was sent in its latest request. */
function lastToolResults(h: Harness): { content: string; is_error?: boolean }[] {
  const last = h.model.requests.at(-1)!.body.messages.at(-1)!;
  return (last.content as { type: string; content: string; is_error?: boolean }[]).filter(
    (b) => b.type === 'tool_result',
  );
}

describe('misbehaving MCP servers in a session: a clear error each time, and the session goes on', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const addServer = async (body: Record<string, unknown>, enabled = true): Promise<McpServer> => {
    const res = await h.api<McpServer>('POST', '/api/mcp/servers', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    if (enabled) await h.api('PATCH', `/api/mcp/servers/${res.body.id}`, { enabled: true });
    return res.body;
  };
  const bad = (name: string, mode: string, extra: Record<string, unknown> = {}, enabled = true) =>
    addServer(
      {
        name,
        transport: 'stdio',
        command: formatCommandLine(process.execPath, [BAD_SERVER, mode]),
        ...extra,
      },
      enabled,
    );
  const status = async (sessionId: string) =>
    (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
  const runTurn = async (sessionId: string, prompt: string): Promise<Turn> =>
    h.waitForTurnEnd((await h.startTurn(sessionId, prompt)).id);
  const toolOf = (s: McpSessionStatus, server: string, tool: string) =>
    s.servers.find((x) => x.name === server)!.tools.find((t) => t.name === tool)!.agent_name;

  it('"Test connection" reports the program, folder, env sources and tools, and reports failures in words', async () => {
    const everything = await addServer(
      {
        name: 'everything-test',
        transport: 'stdio',
        command: formatCommandLine(process.execPath, [EVERYTHING, 'stdio']),
        env: { GREETING: 'hello', HOME_REF: { env: 'HOME' } },
        deny_tools: ['echo'],
      },
      false,
    );
    const res = await h.api<McpTestResult>('POST', `/api/mcp/servers/${everything.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      program: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { GREETING: 'literal', HOME_REF: 'env' },
    });
    expect(res.body.cwd).toBe(path.join(h.dataDir, 'mcp', 'scratch'));
    expect(res.body.server_info?.name).toBeTruthy();
    expect(res.body.tools.find((t) => t.name === 'echo')).toMatchObject({ allowed: false });
    expect(res.body.tools.find((t) => t.name === 'get-sum')).toMatchObject({ allowed: true });

    const many = await bad('many-tools', 'many-tools', {}, false);
    const refused = await h.api<ErrorBody>('POST', `/api/mcp/servers/${many.id}/test`);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('mcp_unavailable');
    expect(refused.body.error.message).toMatch(/more than 256 tools/);
  });

  it('a crash, a hang past the timeout, garbage on stdout and an oversized result each fail only their call', async () => {
    await bad('crashy', 'crash-on-call');
    await bad('hangs', 'hang', { tool_timeout_sec: 1 });
    await bad('chatty', 'ok');
    await bad('huge', 'ok');
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ready' }] });
    expect((await runTurn(sessionId, 'hi')).status).toBe('completed');
    const s = await status(sessionId);
    expect(s.servers.every((x) => x.state === 'connected')).toBe(true);
    const crashPid = Number(
      await (async () => {
        h.model.enqueue(
          { content: [{ type: 'tool_use', name: toolOf(s, 'crashy', 'child_pid'), input: {} }] },
          { content: [{ type: 'text', text: 'ok' }] },
        );
        await runTurn(sessionId, 'pid');
        return lastToolResults(h)[0]!.content;
      })(),
    );

    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: toolOf(s, 'crashy', 'echo'), input: { message: 'x' } },
          { type: 'tool_use', name: toolOf(s, 'hangs', 'hang'), input: {} },
          { type: 'tool_use', name: toolOf(s, 'chatty', 'garbage'), input: {} },
          { type: 'tool_use', name: toolOf(s, 'huge', 'big'), input: {} },
        ],
      },
      { content: [{ type: 'text', text: 'carried on' }] },
    );
    const turn = await runTurn(sessionId, 'misbehave');
    expect(turn.status).toBe('completed');
    const [crash, hang, garbage, big] = lastToolResults(h);
    for (const r of [crash, hang, garbage, big]) expect(r!.is_error).toBe(true);
    expect(crash!.content).toMatch(/exited/);
    expect(hang!.content).toMatch(/did not answer within 1 s/);
    expect(garbage!.content).toMatch(/not MCP on stdout/);
    expect(big!.content).toMatch(/8 MiB|larger than/);

    // The crashed server's whole tree is gone, and its tools say so; the others are unaffected.
    await waitFor(() => isProcessGone(crashPid));
    const after = await status(sessionId);
    expect(after.servers.find((x) => x.name === 'crashy')).toMatchObject({ state: 'crashed' });
    // Each crash went on the journal as it happened, with its reason.
    const crashes = (await h.events(sessionId)).flatMap((e) =>
      e.type === 'mcp.server' && e.state === 'crashed' ? [[e.name, e.error]] : [],
    );
    expect(Object.fromEntries(crashes)).toMatchObject({
      crashy: expect.stringMatching(/exited/),
      chatty: expect.stringMatching(/not MCP on stdout/),
    });
    expect(after.servers.find((x) => x.name === 'huge')).toMatchObject({ state: 'connected' });

    h.model.enqueue(
      { content: [{ type: 'tool_use', name: toolOf(s, 'huge', 'echo'), input: { message: 'still fine' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await runTurn(sessionId, 'go on')).status).toBe('completed');
    expect(lastToolResults(h)[0]).toMatchObject({ content: 'still fine' });
  });

  it('cancelling a turn stops an MCP server that is still starting instead of waiting out its start-up timeout', async () => {
    for (const other of (await h.api<{ servers: McpServer[] }>('GET', '/api/mcp/servers')).body.servers) {
      await h.api('PATCH', `/api/mcp/servers/${other.id}`, { enabled: false });
    }
    const silent = await addServer({
      name: 'silent',
      transport: 'stdio',
      // Never answers initialize: the turn would wait out the 60 s start-up timeout.
      command: formatCommandLine(process.execPath, ['-e', 'setInterval(() => {}, 1000)']),
      startup_timeout_sec: 60,
    });
    const { sessionId } = await h.newSession();
    const turn = await h.startTurn(sessionId, 'hi');
    await waitFor(async () => (await status(sessionId)).servers[0]?.state === 'connecting');
    const cancelled = await h.api<Turn>('POST', `/api/turns/${turn.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await status(sessionId)).servers[0]).toMatchObject({ state: 'failed' });
    await h.api('PATCH', `/api/mcp/servers/${silent.id}`, { enabled: false });
  });
});
