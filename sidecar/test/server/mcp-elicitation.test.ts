// An MCP server's form request (elicitation/create) through the real sidecar: a question of kind
// `elicitation`, answered through the API, checked against the form, defaults filled; declined, cancelled,
// refused when invalid, and cancelled unanswered at the server's tool timeout or with its turn.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandLine } from '../../src/mcp/command-line';
import type {
  CairnEvent,
  McpServer,
  McpSessionStatus,
  Question,
  QuestionList,
  ToolCallWithResult,
} from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { waitFor } from '../tools/tool-context';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ELICIT_SERVER = path.join(root, 'sidecar/test/mcp/fixtures/elicit-server.mjs');
const FORM = JSON.parse(
  fs.readFileSync(path.join(root, 'sidecar/test/mcp/fixtures/elicit-form.json'), 'utf8'),
);

type Of<T extends CairnEvent['type']> = Extract<CairnEvent, { type: T }>;

describe('MCP elicitation in a session (real sidecar, SDK-built server)', () => {
  let h: Harness;
  let forms: McpServer;
  let quick: McpServer;

  const addServer = async (name: string, toolTimeout: number) => {
    const res = await h.api<McpServer>('POST', '/api/mcp/servers', {
      name,
      transport: 'stdio',
      command: formatCommandLine(process.execPath, [ELICIT_SERVER]),
      tool_timeout_sec: toolTimeout,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await h.api('PATCH', `/api/mcp/servers/${res.body.id}`, { enabled: true });
    return res.body;
  };

  beforeAll(async () => {
    h = await startHarness();
    forms = await addServer('forms', 60);
    // Its tool timeout is short: an unanswered form is cancelled at it. Not shorter: the call's own clock
    // runs until the form arrives and again after it is cancelled, each a margin on a loaded machine.
    quick = await addServer('quick', 3);
  });
  afterAll(async () => h?.close());

  const events = async <T extends CairnEvent['type']>(sessionId: string, type: T): Promise<Of<T>[]> =>
    (await h.events(sessionId)).filter((e): e is Of<T> => e.type === type);
  const pending = async (sessionId: string) =>
    (await h.api<QuestionList>('GET', `/api/sessions/${sessionId}/questions`)).body.questions;
  const answer = (id: string, body: Record<string, unknown>) =>
    h.api<
      Question & { error?: { code: string; message: string; details?: { fields: Record<string, string> } } }
    >('POST', `/api/questions/${id}/answer`, body);

  /**
   * Starts a turn whose model calls `name` of `server` with `input` (then answers "done" unless the turn will
   * not get that far); its session and turn.
   */
  const startCall = async (
    server: McpServer,
    name: string,
    input: Record<string, unknown> = { message: 'Who are you?' },
    followUp = true,
  ) => {
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'start')).id);
    const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    const tool = status.servers
      .find((s) => s.server_id === server.id)!
      .tools.find((t) => t.name === name)!.agent_name;
    h.model.enqueue({ content: [{ type: 'tool_use', name: tool, input }] });
    if (followUp) h.model.enqueue({ content: [{ type: 'text', text: 'done' }] });
    return { sessionId, turn: await h.startTurn(sessionId, 'ask me') };
  };

  /** As `startCall`, once the question is asked: its session, turn and the question. */
  const asking = async (
    server: McpServer = forms,
    name = 'fill_form',
    followUp = true,
    input?: Record<string, unknown>,
  ) => {
    const { sessionId, turn } = await startCall(server, name, input, followUp);
    let question: Question | undefined;
    await waitFor(async () => {
      question = (await pending(sessionId))[0];
      return question !== undefined;
    });
    return { sessionId, turn, question: question! };
  };

  /** What the server's tool got back from its elicitation/create. */
  const serverGot = async (sessionId: string, turnId: string) => {
    expect((await h.waitForTurnEnd(turnId)).status).toBe('completed');
    const call = (await events(sessionId, 'tool.finished')).at(-1)!;
    const full = (await h.api<ToolCallWithResult>('GET', `/api/tool-calls/${call.tool_call_id}`)).body;
    return JSON.parse(full.result!) as { action: string; content?: Record<string, unknown> };
  };

  it('asks as a question of kind elicitation; an accepted form reaches the server with defaults filled', async () => {
    const { sessionId, turn, question } = await asking();
    expect(question).toMatchObject({
      kind: 'elicitation',
      question: 'Who are you?',
      options: null,
      tool: null,
      status: 'pending',
      elicitation: { server_id: forms.id, server_name: 'forms', requested_schema: FORM },
    });
    expect(question.tool_call_id).not.toBeNull();
    const required = (await events(sessionId, 'question.required')).at(-1)!;
    expect(required.question).toEqual(question);

    const given = { name: 'Ann', age: 41, size: 's', toppings: ['ol'], score: 0.5 };
    const res = await answer(question.id, {
      answer: 'accept',
      content: { ...given, meeting: '2026-01-02T10:30:00Z' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'answered', answer: 'accept' });
    expect(await serverGot(sessionId, turn.id)).toEqual({
      action: 'accept',
      content: {
        ...given,
        meeting: '2026-01-02T10:30:00Z',
        // Omitted, filled from the form's defaults:
        email: 'ann@example.com',
        birthday: '2000-01-02',
        subscribe: true,
        color: 'green',
        tags: ['a'],
      },
    });
  });

  it('refuses an invalid form with a 400 naming each field, the question still waiting; then declines', async () => {
    const { sessionId, turn, question } = await asking();
    const bad = await answer(question.id, {
      answer: 'accept',
      content: { name: 'A', age: 1.5, email: 'nope', color: 'pink', tags: [], size: 'Small', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.code).toBe('bad_request');
    expect(bad.body.error!.message).toContain('name must be at least 2 characters');
    expect(bad.body.error!.details!.fields).toEqual({
      name: 'must be at least 2 characters',
      age: 'must be a whole number',
      email: 'must be an email address',
      color: 'must be one of: red, green, blue',
      size: 'must be one of: s, l',
      tags: 'must have at least 1 choice',
      extra: 'is not a field of this form',
    });
    const missing = await answer(question.id, { answer: 'accept', content: {} });
    expect(missing.body.error!.details!.fields).toEqual({ name: 'is required' });
    expect((await answer(question.id, { answer: 'maybe' })).status).toBe(400);
    expect((await answer(question.id, { answer: 'decline', content: { name: 'Ann' } })).status).toBe(400);
    expect((await pending(sessionId)).map((q) => q.id)).toEqual([question.id]);

    expect((await answer(question.id, { answer: 'decline' })).status).toBe(200);
    expect(await serverGot(sessionId, turn.id)).toEqual({ action: 'decline' });
  });

  it('cancels when answered "cancel"', async () => {
    const { sessionId, turn, question } = await asking();
    expect((await answer(question.id, { answer: 'cancel' })).status).toBe(200);
    expect(await serverGot(sessionId, turn.id)).toEqual({ action: 'cancel' });
  });

  it('cancels an unanswered form at the server’s tool timeout, closing its question', async () => {
    const { sessionId, turn, question } = await asking(quick);
    // The call's own clock stops while the user is asked: the form's timeout ends the wait, not the call's.
    expect(await serverGot(sessionId, turn.id)).toEqual({ action: 'cancel' });
    const closed = (await events(sessionId, 'question.closed')).find((e) => e.question_id === question.id)!;
    expect(closed.reason).toContain('No answer within 3 s');
    expect((await answer(question.id, { answer: 'cancel' })).status).toBe(409);
  });

  it('stops the runner’s own timeout (the model’s "timeout") while the user fills the form', async () => {
    const { sessionId, turn, question } = await asking(forms, 'fill_form', true, {
      message: 'Slow',
      timeout: 0.2,
    });
    // The user takes well over the call's 0.2 s: a delay, not a limit (longer only makes the check stronger).
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await answer(question.id, { answer: 'decline' })).status).toBe(200);
    expect(await serverGot(sessionId, turn.id)).toEqual({ action: 'decline' });
  });

  it('closes the question when its turn is cancelled', async () => {
    const { sessionId, turn, question } = await asking(forms, 'fill_form', false);
    expect((await h.api('POST', `/api/turns/${turn.id}/cancel`)).status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    expect(await pending(sessionId)).toEqual([]);
    expect((await events(sessionId, 'question.closed')).some((e) => e.question_id === question.id)).toBe(
      true,
    );
  });

  it('closes the form when its call ends without waiting for it', async () => {
    const { sessionId, turn } = await startCall(forms, 'ask_and_return', {});
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    let closed: Of<'question.closed'> | undefined;
    await waitFor(async () => {
      const asked = (await events(sessionId, 'question.required')).at(-1);
      closed = (await events(sessionId, 'question.closed')).find((e) => e.question_id === asked?.question.id);
      return closed !== undefined;
    });
    expect(closed!.reason).toContain('ended before its form was answered');
    expect(await pending(sessionId)).toEqual([]);
  });

  it('closes the question when the server’s connection goes', async () => {
    const { sessionId, turn, question } = await asking(forms, 'ask_and_die');
    const pid = Number(/^Still there\? \(pid (\d+)\)$/.exec(question.question)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // The server dies once the form is seen waiting (no race with a timer of its own).
    process.kill(pid);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(await pending(sessionId)).toEqual([]);
    const closed = (await events(sessionId, 'question.closed')).find((e) => e.question_id === question.id)!;
    expect(closed.reason).toMatch(/MCP server "forms"/);
    const call = (await events(sessionId, 'tool.finished')).at(-1)!;
    expect(call.is_error).toBe(true);
  });
});
