import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined | null | false): Promise<T> {
  for (;;) {
    const value = probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('parallel tool calls', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('run concurrently and their results go back in order', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    // The first call can only finish once the second has run: sequential execution would never see "b".
    const waitForB =
      'for i in $(seq 1 400); do [ -f b ] && break; sleep 0.05; done; [ -f b ] && echo first-saw-b || echo first-gave-up';
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', id: 'toolu_first', name: 'Bash', input: { command: waitForB } },
          {
            type: 'tool_use',
            id: 'toolu_second',
            name: 'Bash',
            input: { command: 'touch b && echo second-done' },
          },
        ],
      },
      { content: [{ type: 'text', text: 'both ran' }] },
    );
    const turn = await h.startTurn(sessionId, 'run both');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const results = h.model.requests[1]!.body.messages.at(-1)!.content as {
      tool_use_id: string;
      content: string;
    }[];
    expect(results.map((r) => r.tool_use_id)).toEqual(['toolu_first', 'toolu_second']);
    expect(results[0]!.content).toContain('first-saw-b');
    expect(results[1]!.content).toContain('second-done');
  });
});

describe('cancellation', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('mid-tool: kills the process tree, ends the turn cancelled, and leaves history usable', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo $! > sleep.pid; wait' } },
      ],
    });
    const turn = await h.startTurn(sessionId, 'sleep');
    const pidFile = path.join(h.projectDir, 'sleep.pid');
    const pid = await waitFor(
      () => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, 'utf8').trim()),
    );
    expect(isAlive(pid)).toBe(true);

    const cancelled = await h.api<{ status: string }>('POST', `/api/turns/${turn.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await waitFor(() => !isAlive(pid));

    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const call = page.body.turns[0]!.tool_calls[0] as ToolCall;
    expect(call.status).toBe('cancelled');
    const types = (await h.events(sessionId)).map((e) => e.type);
    expect(types.at(-1)).toBe('turn.cancelled');

    // The next turn is valid for the API: the cancelled tool_use has its tool_result.
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const next = await h.startTurn(sessionId, 'again');
    expect((await h.waitForTurnEnd(next.id)).status).toBe('completed');
    const messages = h.model.requests[1]!.body.messages;
    const toolUse = (messages[1]!.content as { type: string; id?: string }[]).find(
      (b) => b.type === 'tool_use',
    )!;
    expect(JSON.stringify(messages[2])).toContain(toolUse.id!);
  });

  it('mid-stream: aborts the model stream and keeps the partial text', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'Thinking out loud about it' }], hang: true });
    const turn = await h.startTurn(sessionId, 'talk');
    await h.waitForEvent(sessionId, (e) => e.type === 'message.delta');
    const disconnected = h.model.waitForDisconnect();
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    await disconnected;
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('cancelled');
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const assistant = page.body.turns[0]!.messages.find((m) => m.role === 'assistant');
    expect(String(assistant?.content[0]?.text)).toContain('Thinking');
  });

  it('deleting a session cancels its running turn and stops its processes first', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo $! > del.pid; wait' } },
      ],
    });
    const turn = await h.startTurn(sessionId, 'sleep');
    const pidFile = path.join(h.projectDir, 'del.pid');
    const pid = await waitFor(
      () => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, 'utf8').trim()),
    );
    const deleted = await h.api('DELETE', `/api/sessions/${sessionId}`);
    expect(deleted.status).toBe(204);
    expect(h.server.core.runtime.isRunning(turn.id)).toBe(false);
    await waitFor(() => !isAlive(pid));
    expect((await h.api('GET', `/api/turns/${turn.id}`)).status).toBe(404);
    expect(fs.existsSync(path.join(h.dataDir, 'sessions', sessionId))).toBe(false);
  });

  it('deleting a project does the same for every session in it', async () => {
    h = await startHarness();
    const { projectId, sessionId } = await h.newSession();
    h.model.enqueue({
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo $! > prj.pid; wait' } },
      ],
    });
    await h.startTurn(sessionId, 'sleep');
    const pidFile = path.join(h.projectDir, 'prj.pid');
    const pid = await waitFor(
      () => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, 'utf8').trim()),
    );
    expect((await h.api('DELETE', `/api/projects/${projectId}`)).status).toBe(204);
    await waitFor(() => !isAlive(pid));
    expect((await h.api('GET', `/api/sessions/${sessionId}`)).status).toBe(404);
  });
});
