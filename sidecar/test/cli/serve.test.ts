import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CairnEvent, ToolCallWithResult, Turn } from '../../src/protocol';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { isProcessGone } from '../tools/tool-context';
import {
  jsonLines,
  readPidFile,
  runCli,
  type ServeProcess,
  setUpCliTest,
  startServe,
  tearDownCliTest,
} from './cli-process';

const TOKEN = 'cli-test-token-0123456789-abcdefghij';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('serve'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const lockFile = () => path.join(dataDir, 'cairn.lock');

async function stop(serve: ServeProcess, signal: NodeJS.Signals = 'SIGTERM') {
  serve.proc.child.kill(signal);
  return serve.proc.result();
}

async function events(serve: ServeProcess, sessionId: string): Promise<CairnEvent[]> {
  const res = await serve.api<{ events: CairnEvent[] }>('GET', `/api/sessions/${sessionId}/events`);
  expect(res.status).toBe(200);
  return res.body.events;
}

async function newSession(serve: ServeProcess): Promise<string> {
  const project = await serve.api<{ id: string }>('POST', '/api/projects', { path: workspace });
  expect(project.status).toBe(201);
  const session = await serve.api<{ id: string }>('POST', '/api/sessions', { project_id: project.body.id });
  expect(session.status).toBe(201);
  return session.body.id;
}

async function startTurn(serve: ServeProcess, sessionId: string, prompt: string): Promise<Turn> {
  const res = await serve.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, {
    prompt,
    request_id: `req-${prompt}`,
  });
  expect(res.status).toBe(202);
  return res.body;
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn serve', { timeout: 120_000 }, () => {
  it('prints the URL with a generated token, kept in a 0600 file and reused after a restart', async () => {
    const serve = await startServe(dataDir, testEnv(model));

    expect(serve.proc.stdout).toContain(`${serve.url}/#token=${serve.token}`);
    const tokenFile = path.join(dataDir, 'token');
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(serve.token);
    expect(serve.token.length).toBeGreaterThanOrEqual(32);

    const health = await fetch(`${serve.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, name: 'cairn' });
    const unauthenticated = await fetch(`${serve.url}/api/projects`);
    expect(unauthenticated.status).toBe(401);
    expect((await serve.api('GET', '/api/projects')).status).toBe(200);

    expect((await stop(serve)).code).toBe(0);
    const again = await startServe(dataDir, testEnv(model));
    expect(again.token).toBe(serve.token);
    expect((await stop(again)).code).toBe(0);
  });

  it('uses CAIRN_TOKEN when it is set', async () => {
    const serve = await startServe(dataDir, testEnv(model, { CAIRN_TOKEN: TOKEN }));

    expect(serve.token).toBe(TOKEN);
    expect((await serve.api('GET', '/api/projects')).status).toBe(200);
    expect((await stop(serve)).code).toBe(0);
  });

  it('refuses a non-loopback --host with exit 2', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir], {
      env: testEnv(model),
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('0.0.0.0');
    expect(result.stdout).toBe('');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops cleanly on %s: exit 0, lock file removed',
    async (signal) => {
      const serve = await startServe(dataDir, testEnv(model));
      expect(fs.existsSync(lockFile())).toBe(true);

      const result = await stop(serve, signal);

      expect(result.code).toBe(0);
      expect(result.signal).toBeNull();
      expect(fs.existsSync(lockFile())).toBe(false);
    },
  );

  it('owns its data directory: a second serve, or a run without --server, fails and names the holder', async () => {
    const serve = await startServe(dataDir, testEnv(model, { CAIRN_TOKEN: TOKEN }));

    const second = await runCli(['serve', '--port', '0', '--data-dir', dataDir], { env: testEnv(model) });
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(dataDir);
    expect(second.stderr).toContain(`pid ${serve.proc.pid}`);

    const run = await runCli(['run', '--workspace', workspace, '--prompt', 'hi', '--data-dir', dataDir], {
      env: testEnv(model),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(dataDir);
    expect(run.stderr).toContain(`pid ${serve.proc.pid}`);
    expect(run.stderr).toContain('--server');
    expect(model.requests).toHaveLength(0);

    // The refused processes left the holder's lock alone.
    expect((await serve.api('GET', '/api/projects')).status).toBe(200);
    expect((await stop(serve)).code).toBe(0);
  });

  it('run --server completes a turn through the running server', async () => {
    const serve = await startServe(dataDir, testEnv(model, { CAIRN_TOKEN: TOKEN }));
    model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo via server > remote.txt' } }] },
      { content: [{ type: 'text', text: 'Done remotely.' }] },
    );

    const result = await runCli(
      ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'write remote.txt', '--json'],
      { env: testEnv(model, { CAIRN_TOKEN: TOKEN }) },
    );

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(workspace, 'remote.txt'), 'utf8')).toBe('via server\n');
    const printed = jsonLines(result.stdout);
    expect(printed[0]?.type).toBe('turn.started');
    expect(printed.at(-1)?.type).toBe('turn.completed');
    // The server holds the turn too.
    const turn = await serve.api<Turn>('GET', `/api/turns/${printed[0]?.turn_id as string}`);
    expect(turn.body.status).toBe('completed');
    expect((await stop(serve)).code).toBe(0);
  });

  it('run --server --json with a question prints it, cancels the turn on the server and exits 3', async () => {
    const serve = await startServe(dataDir, testEnv(model, { CAIRN_TOKEN: TOKEN }));
    model.enqueue({
      content: [{ type: 'tool_use', name: 'AskUserQuestion', input: { question: 'Which one?' } }],
    });

    const result = await runCli(
      ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'choose', '--json'],
      { env: testEnv(model, { CAIRN_TOKEN: TOKEN }) },
    );

    expect(result.code).toBe(3);
    const printed = jsonLines(result.stdout);
    const asked = printed.find((e) => e.type === 'question.required');
    expect(asked?.question).toMatchObject({ question: 'Which one?' });
    expect(printed.at(-1)?.type).toBe('turn.cancelled');
    const turn = await serve.api<Turn>('GET', `/api/turns/${asked?.turn_id as string}`);
    expect(turn.body.status).toBe('cancelled');
    expect((await stop(serve)).code).toBe(0);
  });

  it('run --server with a wrong token fails with exit 1', async () => {
    const serve = await startServe(dataDir, testEnv(model, { CAIRN_TOKEN: TOKEN }));

    const result = await runCli(['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'x'], {
      env: testEnv(model, { CAIRN_TOKEN: 'not-the-token' }),
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cairn:');
    expect(result.stderr).not.toContain(TOKEN);
    expect(model.requests).toHaveLength(0);
    expect((await stop(serve)).code).toBe(0);
  });

  it('starts after a serve killed with SIGKILL left its lock behind', async () => {
    const first = await startServe(dataDir, testEnv(model));
    const killed = await stop(first, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(lockFile())).toBe(true);

    const next = await startServe(dataDir, testEnv(model));
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: next.proc.pid });
    expect((await stop(next)).code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('after a SIGKILL mid-tool, the next start marks the turn and tool call interrupted and the session goes on', async () => {
    const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
    const first = await startServe(dataDir, env);
    const sessionId = await newSession(first);
    model.enqueue({
      content: [
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'echo $$ > bash.pid; sleep 1000 & echo $! > sleep.pid; wait' },
        },
      ],
    });
    const turn = await startTurn(first, sessionId, 'sleep for a long time');
    const started = await vi.waitFor(
      async () => {
        const found = (await events(first, sessionId)).find((e) => e.type === 'tool.started');
        if (found?.type !== 'tool.started') throw new Error('no tool.started yet');
        return found;
      },
      { timeout: 30_000, interval: 50 },
    );
    const pids = await vi.waitFor(
      () => {
        const bash = readPidFile(path.join(workspace, 'bash.pid'));
        const sleep = readPidFile(path.join(workspace, 'sleep.pid'));
        if (bash === null || sleep === null) throw new Error('the command has not written its pids yet');
        return { bash, sleep };
      },
      { timeout: 30_000, interval: 20 },
    );
    strays.push(pids.sleep, pids.bash);

    expect((await stop(first, 'SIGKILL')).signal).toBe('SIGKILL');
    const second = await startServe(dataDir, env);

    const after = await second.api<Turn>('GET', `/api/turns/${turn.id}`);
    expect(after.body.status).toBe('interrupted');
    expect(after.body.error?.code).toBe('interrupted');
    const call = await second.api<ToolCallWithResult>('GET', `/api/tool-calls/${started.tool_call_id}`);
    expect(call.body.status).toBe('interrupted');
    expect(call.body.is_error).toBe(true);
    expect(call.body.result).toMatch(/interrupted/);
    const recorded = await events(second, sessionId);
    expect(recorded.filter((e) => e.type === 'turn.interrupted')).toEqual([
      expect.objectContaining({ turn_id: turn.id }),
    ]);
    const turnEvents = recorded.filter((e) => e.turn_id === turn.id);
    expect(turnEvents.at(-1)?.type).toBe('turn.interrupted');
    // A client still showing the tool as running hears that it ended.
    expect(recorded).toContainEqual(
      expect.objectContaining({
        type: 'tool.finished',
        tool_call_id: started.tool_call_id,
        status: 'interrupted',
      }),
    );

    model.enqueue({ content: [{ type: 'text', text: 'Carrying on.' }] });
    const next = await startTurn(second, sessionId, 'carry on');
    await vi.waitFor(
      async () => {
        const state = await second.api<Turn>('GET', `/api/turns/${next.id}`);
        if (state.body.status === 'running') throw new Error('still running');
        expect(state.body.status).toBe('completed');
      },
      { timeout: 30_000, interval: 50 },
    );
    const request = model.requests.at(-1)!;
    const blocks = request.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as {
      type: string;
      tool_use_id?: string;
      id?: string;
    }[];
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'tool_use', id: started.tool_use_id }));
    expect(blocks).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_use_id: started.tool_use_id }),
    );
    expect(JSON.stringify(request.body.messages)).toContain('carry on');

    expect((await stop(second)).code).toBe(0);
  });

  it('SIGTERM cancels the running turn and stops its processes before exiting', async () => {
    const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
    const first = await startServe(dataDir, env);
    const sessionId = await newSession(first);
    model.enqueue({
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo $! > sleep.pid; wait' } },
      ],
    });
    const turn = await startTurn(first, sessionId, 'sleep until stopped');
    const sleepPid = await vi.waitFor(
      () => {
        const pid = readPidFile(path.join(workspace, 'sleep.pid'));
        if (pid === null) throw new Error('the command has not written its pid yet');
        return pid;
      },
      { timeout: 30_000, interval: 20 },
    );
    strays.push(sleepPid);
    expect(isProcessGone(sleepPid)).toBe(false);

    const result = await stop(first, 'SIGTERM');
    expect(result.code).toBe(0);
    // The process tree was stopped before the sidecar exited, not left to a later recovery.
    expect(isProcessGone(sleepPid)).toBe(true);
    expect(fs.existsSync(lockFile())).toBe(false);

    const second = await startServe(dataDir, env);
    const after = await second.api<Turn>('GET', `/api/turns/${turn.id}`);
    expect(after.body.status).toBe('cancelled');
    expect((await stop(second)).code).toBe(0);
  });
});
