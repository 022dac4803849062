import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileLogger } from '../../src/log/logger';
import type { ApprovalMode, CairnEvent } from '../../src/protocol';
import { Store } from '../../src/store/store';
import type { CallRequest, UserQuestion, UserQuestions } from '../../src/tools/runtime/call-request';
import { ScriptTokens } from '../../src/tools/runtime/script-tokens';
import { ToolCallRunner } from '../../src/tools/runtime/tool-call-runner';
import { defineTool, type Tool } from '../../src/tools/tool';
import { ToolCallFiles } from '../../src/tools/tool-call-files';
import { makeTempDir, removeDir } from './tool-context';

/** A tool that takes `ms` to answer unless its signal stops it first. */
const slowTool: Tool = defineTool({
  name: 'Slow',
  description: 'waits',
  inputSchema: z.object({ ms: z.number() }),
  sideEffects: true,
  needsProject: false,
  background: 'runner',
  async execute(input, ctx) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    ctx.onOutput('stdout', 'waited\n');
    return { content: `waited ${input.ms} ms` };
  },
});

/** The user, answering each approval after `delayMs`. */
class SlowUser implements UserQuestions {
  asked: UserQuestion[] = [];
  constructor(private readonly delayMs: number) {}
  ask(question: UserQuestion, signal: AbortSignal): Promise<string> {
    this.asked.push(question);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('allow'), this.delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }
}

describe('ToolCallRunner', () => {
  let dir: string;
  let store: Store;
  let ids: { sessionId: string; turnId: string };
  const events: CairnEvent[] = [];

  beforeEach(async () => {
    dir = await makeTempDir('cairn-runner-');
    store = Store.open(dir);
    const session = store.sessions.create({ projectId: null, approval: 'ask' });
    ids = { sessionId: session.id, turnId: store.turns.create(session.id, 'r1', 'go').id };
    store.events.subscribe((e) => events.push(e));
  });
  afterEach(async () => {
    store.close();
    await removeDir(dir);
  });

  const runner = (user: UserQuestions) =>
    new ToolCallRunner({
      store,
      files: new ToolCallFiles(dir),
      questions: user,
      tokens: new ScriptTokens(),
      scriptAccess: async () => null,
      logger: createFileLogger({ dir: `${dir}/logs`, level: 'info', alsoStderr: false }),
    });
  const request = (input: unknown, mode: ApprovalMode = 'ask'): CallRequest => ({
    ...ids,
    projectRoot: null,
    toolUseId: `tu_${Math.random()}`,
    name: 'Slow',
    input,
    tools: [slowTool],
    approvalMode: () => mode,
    parentCallId: null,
    signal: new AbortController().signal,
  });

  it('starts a background call’s timeout only once the user has approved it', async () => {
    const user = new SlowUser(300);
    const r = runner(user);
    // A 0.2 s limit on a 0.05 s call, approved after 0.3 s: the wait for the user is not counted.
    const receipt = await r.run(request({ ms: 50, timeout: 0.2, is_wait: false }));
    expect(receipt).toMatchObject({ status: 'running', background: true });
    expect(user.asked).toHaveLength(1);
    await r.running.get(receipt.callId)?.done;
    expect(store.toolCalls.get(receipt.callId)).toMatchObject({ status: 'completed', background: true });
    expect(events.filter((e) => e.type === 'tool.running').length).toBe(1);
  });

  it('stops a background call at its timeout, counted from when it runs', async () => {
    const r = runner(new SlowUser(0));
    const receipt = await r.run(request({ ms: 5_000, timeout: 0.1, is_wait: false }, 'auto'));
    await r.running.get(receipt.callId)?.done;
    const call = store.toolCalls.get(receipt.callId)!;
    expect(call.status).toBe('failed');
    expect(call.meta).toMatchObject({ stopped: 'timeout' });
    expect(new ToolCallFiles(dir).readResult(ids.sessionId, call.id)).toContain('Timed out after 0.1 s');
  });

  it('waits for a call without is_wait, and turns a denial into the call’s result', async () => {
    const r = runner({ ask: async () => 'deny' });
    const outcome = await r.run(request({ ms: 1 }));
    expect(outcome).toMatchObject({ status: 'denied', isError: true, background: false });
    expect(r.running.all()).toEqual([]);
  });

  it('answers a background call that never started with how it ended, not a receipt', async () => {
    const denied = await runner({ ask: async () => 'deny' }).run(request({ ms: 1, is_wait: false }));
    expect(denied).toMatchObject({ status: 'denied', isError: true });
    const invalid = await runner(new SlowUser(0)).run(request({ ms: 'soon', is_wait: false }, 'auto'));
    expect(invalid).toMatchObject({ status: 'failed', isError: true });
    expect(invalid.content).toContain('Invalid input for Slow');
    // The turn is cancelled while the call waits for the user: cancelled, and said so.
    const turn = new AbortController();
    const pending = runner(new SlowUser(10_000)).run({
      ...request({ ms: 1, is_wait: false }),
      signal: turn.signal,
    });
    setTimeout(() => turn.abort(), 20);
    expect(await pending).toMatchObject({ status: 'cancelled', isError: true, background: true });
  });

  it('rewrites status.json once an approved call runs', async () => {
    let answer: (value: string) => void = () => undefined;
    const user: UserQuestions = { ask: () => new Promise((resolve) => (answer = resolve)) };
    const r = runner(user);
    const waited = r.run(request({ ms: 200 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [call] = r.running.all();
    const statusFile = () =>
      (
        JSON.parse(
          fs.readFileSync(`${new ToolCallFiles(dir).callDir(ids.sessionId, call!.id)}/status.json`, 'utf8'),
        ) as {
          status: string;
        }
      ).status;
    expect(statusFile()).toBe('waiting_approval');
    answer('allow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statusFile()).toBe('running');
    expect((await waited).status).toBe('completed');
    expect(statusFile()).toBe('completed');
  });

  it('cancels a call and the calls its scripts started, and says why in each', async () => {
    const r = runner(new SlowUser(0));
    const parent = await r.run(request({ ms: 5_000, is_wait: false }, 'auto'));
    const child = await r.run({
      ...request({ ms: 5_000, is_wait: false }, 'auto'),
      parentCallId: parent.callId,
    });
    const grandchild = r.run({ ...request({ ms: 5_000 }, 'auto'), parentCallId: child.callId });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await r.cancel(parent.callId)).toBe(true);
    expect((await grandchild).status).toBe('cancelled');
    for (const id of [parent.callId, child.callId]) expect(store.toolCalls.get(id)?.status).toBe('cancelled');
    expect(new ToolCallFiles(dir).readResult(ids.sessionId, child.callId)).toContain(
      `Cancelled with the call that started it (${parent.callId})`,
    );
    expect(await r.cancel(parent.callId)).toBe(false);
  });
});
