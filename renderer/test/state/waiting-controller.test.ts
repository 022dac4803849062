import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type {
  AnswerQuestionRequest,
  CairnEvent,
  NewEvent,
  Question,
  ToolCallWithResult,
} from '../../../sidecar/src/protocol';
import { WaitingController } from '../../src/state/waiting-controller';
import {
  applyWaitingEvent,
  callsAwaitingApproval,
  waitingFrom,
  waitingOutside,
} from '../../src/state/waiting-view';
import { eventMaker } from '../support/journal-events';
import { approvalFor, storedToolCall } from '../support/tool-calls';

// What waits for the user outside the running turn: the pending questions read once the session is
// subscribed, the events held while they were read folded in after, then live events; the running turn's
// own questions stay out of the list until it ends.

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function source() {
  const listeners = new Set<(e: CairnEvent) => void>();
  const make = eventMaker('s');
  return {
    listen: (l: (e: CairnEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (e: NewEvent) => {
      const event = make(e);
      for (const l of listeners) l(event);
    },
  };
}

const asked = (id: string, turn: string, patch: Partial<Question> = {}): Question => ({
  ...approvalFor(storedToolCall({ id: `tc-${id}`, turn_id: turn }), { id }),
  ...patch,
});
const required = (question: Question): NewEvent => ({
  type: 'question.required',
  turn_id: question.turn_id,
  question,
});
const ids = (questions: readonly Question[]) => questions.map((q) => q.id);

describe('WaitingController', () => {
  it('joins the read and the events held while it was out, then follows questions and turns', async () => {
    const read = deferred<Question[]>();
    const client = { questions: () => read.promise, toolCall: () => Promise.reject(new Error('gone')) };
    const events = source();
    let running: string | null = 't2';
    const controller = new WaitingController(client as unknown as CairnClient, events, 's', () => running);
    const started = controller.start();
    // Read when the events begin, not when the read answers.
    running = 'nope';
    const [old, script, own] = [asked('q1', 't0'), asked('q2', 't1'), asked('q3', 't2')];
    events.emit(required(script));
    events.emit(required(asked('q0', 't1')));
    events.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q0', answer: 'deny' });
    events.emit(required(own));
    expect(controller.getSnapshot().view).toBeNull();
    // The read is later than those events: it has the ones still pending (and not q0).
    read.resolve([old, script, own]);
    await started;
    const view = () => controller.getSnapshot().view;
    expect(ids(view()!.pending)).toEqual(['q1', 'q2', 'q3']);
    expect(view()!.runningTurnId).toBe('t2');
    expect(ids(waitingOutside(view()))).toEqual(['q1', 'q2']);

    events.emit({
      type: 'question.closed',
      turn_id: 't0',
      question_id: 'q1',
      reason: 'The call was stopped.',
    });
    expect(ids(waitingOutside(view()))).toEqual(['q2']);
    // The running turn ends: its own pending question now waits here too.
    events.emit({ type: 'turn.completed', turn_id: 't2', usage: null });
    expect(ids(waitingOutside(view()))).toEqual(['q2', 'q3']);
    events.emit({ type: 'turn.started', turn_id: 't5', ordinal: 5, prompt: 'go on' });
    events.emit(required(asked('q5', 't5', { kind: 'question', tool: null, tool_call_id: null })));
    expect(ids(waitingOutside(view()))).toEqual(['q2', 'q3']);
    expect(ids(view()!.pending)).toEqual(['q2', 'q3', 'q5']);
    events.emit({ type: 'turn.cancelled', turn_id: 't5' });
    expect(ids(waitingOutside(view()))).toEqual(['q2', 'q3', 'q5']);
    events.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q2', answer: 'allow' });
    events.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q2', answer: 'allow' });
    expect(ids(waitingOutside(view()))).toEqual(['q3', 'q5']);

    controller.dispose();
    events.emit({ type: 'question.closed', turn_id: 't2', question_id: 'q3', reason: 'x' });
    expect(ids(view()!.pending)).toEqual(['q3', 'q5']);
  });

  it('shows every pending question between turns, and a turn ending while the read is out is heard', async () => {
    const read = deferred<Question[]>();
    const events = source();
    const client = { questions: () => read.promise, toolCall: () => Promise.reject(new Error('gone')) };
    const controller = new WaitingController(client as unknown as CairnClient, events, 's', () => 't1');
    const started = controller.start();
    events.emit({ type: 'turn.failed', turn_id: 't1', error: { code: 'internal', message: 'x' } });
    read.resolve([asked('q1', 't1')]);
    await started;
    expect(controller.getSnapshot().view?.runningTurnId).toBeNull();
    expect(ids(waitingOutside(controller.getSnapshot().view))).toEqual(['q1']);
  });

  it("knows which background call's script waits: from its tool.started, or read for one asked before", async () => {
    const earlier = storedToolCall({
      id: 'tc2',
      name: 'Write',
      status: 'waiting_approval',
      parent_tool_call_id: 'tc1',
    });
    const calls: string[] = [];
    const client = {
      questions: async () => [approvalFor(earlier)],
      toolCall: async (id: string): Promise<ToolCallWithResult> => {
        calls.push(id);
        return { ...earlier, result: null };
      },
    };
    const events = source();
    const controller = new WaitingController(client as unknown as CairnClient, events, 's', () => null);
    await controller.start();
    expect(calls).toEqual(['tc2']);
    const view = () => controller.getSnapshot().view;
    expect([...callsAwaitingApproval(view())]).toEqual(['tc1']);

    const later = storedToolCall({
      id: 'tc3',
      name: 'Write',
      status: 'waiting_approval',
      parent_tool_call_id: 'tc7',
    });
    events.emit({
      type: 'tool.started',
      turn_id: 't1',
      tool_call_id: later.id,
      tool_use_id: later.tool_use_id,
      name: later.name,
      input: later.input,
      status: 'waiting_approval',
      parent_tool_call_id: 'tc7',
      background: false,
    });
    events.emit(required(approvalFor(later)));
    expect([...callsAwaitingApproval(view())].sort()).toEqual(['tc1', 'tc7']);
    events.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q-tc2', answer: 'deny' });
    expect([...callsAwaitingApproval(view())]).toEqual(['tc7']);
    expect(view()!.parents).toEqual({ tc3: 'tc7' });
    expect(calls).toEqual(['tc2']);
  });

  it('answers through the client, says when the read failed, and starts nothing once disposed', async () => {
    const answered: string[] = [];
    const events = source();
    const client = {
      questions: () => Promise.reject(new Error('The server is gone.')),
      answer: async (id: string, request: AnswerQuestionRequest) => {
        answered.push(`${id} ${request.answer} ${request.remember}`);
        return approvalFor(storedToolCall({ id: 'tc1' }), { status: 'answered', answer: request.answer });
      },
    };
    const controller = new WaitingController(client as unknown as CairnClient, events, 's', () => null);
    await controller.start();
    expect(controller.getSnapshot()).toEqual({ view: null, error: 'The server is gone.' });
    events.emit(required(asked('q1', 't1')));
    expect(controller.getSnapshot().view).toBeNull();
    await controller.answer('q1', { answer: 'allow', remember: 'session' });
    expect(answered).toEqual(['q1 allow session']);

    let reads = 0;
    const idle = new WaitingController(
      { questions: async () => [reads++] } as unknown as CairnClient,
      events,
      's',
      () => null,
    );
    idle.dispose();
    await idle.start();
    expect(reads).toBe(0);
  });
});

describe('applyWaitingEvent', () => {
  it('ignores what is not a pending question, and keeps the view when nothing changes', () => {
    const make = eventMaker('s');
    const view = waitingFrom([asked('q1', 't1'), asked('q2', 't1', { status: 'answered' })], 't1');
    expect(ids(view.pending)).toEqual(['q1']);
    const apply = (e: NewEvent) => applyWaitingEvent(view, make(e));
    expect(apply(required(asked('q1', 't1')))).toBe(view);
    expect(apply(required(asked('q3', 't1', { status: 'closed' })))).toBe(view);
    expect(apply({ type: 'question.closed', turn_id: 't1', question_id: 'nope', reason: '' })).toBe(view);
    expect(apply({ type: 'turn.completed', turn_id: 't0', usage: null })).toBe(view);
    expect(apply({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: '' })).toBe(view);
    expect(apply({ type: 'message.delta', turn_id: 't1', index: 0, text: 'hi' })).toBe(view);
  });
});
