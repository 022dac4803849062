// Processes a Bash call started are recorded in its folder, and a sidecar killed with SIGKILL has them
// stopped by the next start, which verifies they are still the very processes it recorded.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CairnEvent, ToolCallWithResult, Turn, TurnWithDetails } from '../../src/protocol';
import { processStartTime, readProcessRecord } from '../../src/tools/process-record';
import {
  readPidFile,
  type ServeProcess,
  setUpCliTest,
  startServe,
  tearDownCliTest,
} from '../cli/cli-process';
import { type Harness, startHarness, testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { isProcessGone, waitFor } from '../tools/tool-context';

const TOKEN = 'crash-test-token-0123456789-abcdefghij';
const SLEEP_COMMAND = 'sleep 1000 & echo $! > sleep.pid; wait';

function recordPath(dataDir: string, sessionId: string, toolCallId: string): string {
  return path.join(dataDir, 'sessions', sessionId, 'tool-calls', toolCallId, 'process.json');
}

/** The process group of a live pid (field 5 of /proc/<pid>/stat). */
function processGroup(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function waitForPidFile(file: string): Promise<number> {
  return vi.waitFor(
    () => {
      const pid = readPidFile(file);
      if (pid === null) throw new Error('the command has not written its pid yet');
      return pid;
    },
    { timeout: 30_000, interval: 20 },
  );
}

describe.skipIf(process.platform !== 'linux')('processes left by a crash', { timeout: 120_000 }, () => {
  let model: ModelServer;
  let dataDir: string;
  let workspace: string;
  const strays: (number | null)[] = [];

  beforeEach(async () => {
    ({ model, dataDir, workspace } = await setUpCliTest('crash'));
  });

  afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

  async function newSession(serve: ServeProcess): Promise<string> {
    const project = await serve.api<{ id: string }>('POST', '/api/projects', { path: workspace });
    expect(project.status).toBe(201);
    const session = await serve.api<{ id: string }>('POST', '/api/sessions', { project_id: project.body.id });
    expect(session.status).toBe(201);
    return session.body.id;
  }

  async function toolStarted(serve: ServeProcess, sessionId: string) {
    return vi.waitFor(
      async () => {
        const res = await serve.api<{ events: CairnEvent[] }>('GET', `/api/sessions/${sessionId}/events`);
        const found = res.body.events.find((e) => e.type === 'tool.started');
        if (found?.type !== 'tool.started') throw new Error('no tool.started yet');
        return found;
      },
      { timeout: 30_000, interval: 50 },
    );
  }

  /** A serve whose turn is inside a Bash `sleep` that wrote its pid. */
  async function sleepingServe(env: NodeJS.ProcessEnv, requestId: string) {
    const first = await startServe(dataDir, env);
    const sessionId = await newSession(first);
    model.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: SLEEP_COMMAND } }] });
    const turnRes = await first.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, {
      prompt: 'sleep for a long time',
      request_id: requestId,
    });
    expect(turnRes.status).toBe(202);
    const started = await toolStarted(first, sessionId);
    const sleepPid = await waitForPidFile(path.join(workspace, 'sleep.pid'));
    strays.push(sleepPid);
    return { first, sessionId, turnRes, started, sleepPid };
  }

  it('the next start stops the process group a SIGKILLed serve left running', async () => {
    const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
    const { first, sessionId, turnRes, started, sleepPid } = await sleepingServe(env, 'req-crash');

    // The record names the shell leading the group the sleep runs in, down to its start time.
    const file = recordPath(dataDir, sessionId, started.tool_call_id);
    const record = readProcessRecord(file);
    if (record === null || record === 'invalid') throw new Error(`no valid record in ${file}`);
    strays.push(record.pid);
    expect(record.platform).toBe('linux');
    expect(record.start_time).toBe(processStartTime(record.pid));
    expect(processGroup(sleepPid)).toBe(record.pid);

    first.proc.child.kill('SIGKILL');
    expect((await first.proc.result()).signal).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isProcessGone(sleepPid)).toBe(false);

    const second = await startServe(dataDir, env);
    await waitFor(() => isProcessGone(sleepPid) && isProcessGone(record.pid));
    expect(fs.existsSync(file)).toBe(false);

    const call = await second.api<ToolCallWithResult>('GET', `/api/tool-calls/${started.tool_call_id}`);
    expect(call.body.status).toBe('interrupted');
    expect(call.body.result).toMatch(/interrupted/);
    expect(call.body.result).toContain(`Its processes (process group ${record.pid})`);
    expect(call.body.result).toContain('were stopped');
    const turn = await second.api<Turn>('GET', `/api/turns/${turnRes.body.id}`);
    expect(turn.body.status).toBe('interrupted');
    // The model will read the same: the synthetic tool_result in history says the processes were stopped.
    const page = await second.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const results = page.body.turns[0]!.messages.flatMap((m) => m.content).filter(
      (b) => b.type === 'tool_result',
    );
    expect(JSON.stringify(results)).toContain('were stopped');

    second.proc.child.kill('SIGTERM');
    expect((await second.proc.result()).code).toBe(0);
  });

  it('marks a background call a SIGKILLed serve left running interrupted, and stops its processes', async () => {
    const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
    const first = await startServe(dataDir, env);
    const sessionId = await newSession(first);
    model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: SLEEP_COMMAND, is_wait: false } }] },
      { content: [{ type: 'text', text: 'It runs in the background.' }] },
    );
    const turnRes = await first.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, {
      prompt: 'start it in the background',
      request_id: 'req-background',
    });
    const started = await toolStarted(first, sessionId);
    const sleepPid = await waitForPidFile(path.join(workspace, 'sleep.pid'));
    strays.push(sleepPid);
    // The turn ended; the call still runs.
    await vi.waitFor(
      async () => {
        const turn = await first.api<Turn>('GET', `/api/turns/${turnRes.body.id}`);
        if (turn.body.status !== 'completed') throw new Error(`turn ${turn.body.status}`);
      },
      { timeout: 30_000, interval: 50 },
    );
    const record = readProcessRecord(recordPath(dataDir, sessionId, started.tool_call_id));
    if (record === null || record === 'invalid') throw new Error('no process record');
    strays.push(record.pid);

    first.proc.child.kill('SIGKILL');
    await first.proc.result();
    expect(isProcessGone(sleepPid)).toBe(false);
    const second = await startServe(dataDir, env);
    await waitFor(() => isProcessGone(sleepPid) && isProcessGone(record.pid));
    const call = await second.api<ToolCallWithResult>('GET', `/api/tool-calls/${started.tool_call_id}`);
    expect(call.body).toMatchObject({ status: 'interrupted', background: true });
    expect(call.body.result).toContain('were stopped');
    // Its turn had ended well before: it stays completed.
    expect((await second.api<Turn>('GET', `/api/turns/${turnRes.body.id}`)).body.status).toBe('completed');
    second.proc.child.kill('SIGTERM');
    expect((await second.proc.result()).code).toBe(0);
  });

  it('leaves alone a process whose record no longer matches, and says so', async () => {
    const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
    const { first, sessionId, started, sleepPid } = await sleepingServe(env, 'req-mismatch');
    const file = recordPath(dataDir, sessionId, started.tool_call_id);
    await waitFor(() => fs.existsSync(file));

    first.proc.child.kill('SIGKILL');
    await first.proc.result();
    // As if the pid now belonged to another process: the start time is not the recorded one.
    const record = readProcessRecord(file);
    if (record === null || record === 'invalid') throw new Error(`no valid record in ${file}`);
    strays.push(record.pid);
    fs.writeFileSync(file, JSON.stringify({ ...record, start_time: `${record.start_time}0` }));

    const second = await startServe(dataDir, env);
    const call = await second.api<ToolCallWithResult>('GET', `/api/tool-calls/${started.tool_call_id}`);
    expect(call.body.status).toBe('interrupted');
    expect(call.body.result).toContain(`A process it started (pid ${record.pid}) may still be running`);
    expect(isProcessGone(sleepPid)).toBe(false);
    expect(isProcessGone(record.pid)).toBe(false);

    second.proc.child.kill('SIGTERM');
    expect((await second.proc.result()).code).toBe(0);
  });
});

describe.skipIf(process.platform === 'win32')('the process record of a running call', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('exists while the command runs and is removed when it is cancelled or ends', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: SLEEP_COMMAND } }] });
    const turn = await h.startTurn(sessionId, 'sleep');
    const started = await h.waitForEvent(sessionId, (e) => e.type === 'tool.started');
    if (started.type !== 'tool.started') throw new Error('unexpected event');
    const sleepPid = await waitForPidFile(path.join(h.projectDir, 'sleep.pid'));
    const file = recordPath(h.dataDir, sessionId, started.tool_call_id);
    const record = readProcessRecord(file);
    expect(record).toMatchObject({ platform: process.platform });

    expect((await h.api('POST', `/api/turns/${turn.id}/cancel`)).status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    expect(fs.existsSync(file)).toBe(false);
    await waitFor(() => isProcessGone(sleepPid));

    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo done' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    const next = await h.startTurn(sessionId, 'echo');
    expect((await h.waitForTurnEnd(next.id)).status).toBe('completed');
    const callDirs = fs.readdirSync(path.join(h.dataDir, 'sessions', sessionId, 'tool-calls'));
    expect(callDirs).toHaveLength(2);
    for (const callDir of callDirs) {
      expect(
        fs.readdirSync(path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', callDir)).sort(),
      ).toEqual(expect.arrayContaining(['result.txt', 'status.json']));
      // No process record is left: only the result, the status and output pieces.
      expect(
        fs
          .readdirSync(path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', callDir))
          .filter((name) => !/^(\d{4,}\.txt|result\.txt|status\.json)$/.test(name)),
      ).toEqual([]);
    }
  });
});
