import { describe, expect, it } from 'vitest';
import type { CairnEvent, NewEvent, Question } from '../../../sidecar/src/protocol';
import { applyEvent, type TurnView, turnFromStart } from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';

const ev = eventMaker('s');

function start(): TurnView {
  return turnFromStart(
    ev({ type: 'turn.started', turn_id: 't', ordinal: 1, prompt: 'hi' }) as Extract<
      CairnEvent,
      { type: 'turn.started' }
    >,
  );
}

const play = (view: TurnView, events: NewEvent[]) => events.reduce((v, e) => applyEvent(v, ev(e)), view);

describe('turn view', () => {
  it('streams text into a block, then replaces it with the completed message', () => {
    const view = play(start(), [
      { type: 'message.delta', turn_id: 't', index: 0, text: 'Hel' },
      { type: 'message.delta', turn_id: 't', index: 0, text: 'lo' },
    ]);
    expect(view.items.at(-1)).toMatchObject({ kind: 'text', text: 'Hello', streaming: true });
    const done = play(view, [
      {
        type: 'message.completed',
        turn_id: 't',
        stop_reason: 'end_turn',
        message: {
          id: 1,
          turn_id: 't',
          role: 'assistant',
          content: [{ type: 'text', text: 'Hello' }],
          internal: false,
          created_at: '',
        },
      },
      { type: 'turn.completed', turn_id: 't', usage: null },
    ]);
    expect(done.items.map((i) => i.kind)).toEqual(['prompt', 'text']);
    expect(done.items[1]).toMatchObject({ text: 'Hello', streaming: false });
    expect(done.turn.status).toBe('completed');
  });

  it('drops what streamed of a response discarded for a truncated tool call', () => {
    const view = play(start(), [
      { type: 'message.delta', turn_id: 't', index: 0, text: 'Writing it all' },
      { type: 'llm.continuation', turn_id: 't', reason: 'truncated_tool_call', attempt: 1, max_attempts: 5 },
      { type: 'message.delta', turn_id: 't', index: 0, text: 'Smaller now' },
    ]);
    const texts = view.items.filter((i) => i.kind === 'text').map((i) => (i.kind === 'text' ? i.text : ''));
    expect(texts).toEqual(['Smaller now']);
    expect(view.items.some((i) => i.kind === 'note')).toBe(true);
  });

  it('follows a tool card from start to finish, with live output', () => {
    const view = play(start(), [
      {
        type: 'message.completed',
        turn_id: 't',
        stop_reason: 'tool_use',
        message: {
          id: 1,
          turn_id: 't',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } }],
          internal: false,
          created_at: '',
        },
      },
      {
        type: 'tool.started',
        turn_id: 't',
        tool_call_id: 'tc1',
        tool_use_id: 'tu1',
        name: 'Bash',
        input: { command: 'ls' },
        status: 'running',
        parent_tool_call_id: null,
        background: false,
      },
      { type: 'tool.output', turn_id: 't', tool_call_id: 'tc1', stream: 'stdout', text: 'a\n' },
      { type: 'tool.output', turn_id: 't', tool_call_id: 'tc1', stream: 'stdout', text: 'b\n' },
    ]);
    const card = view.items.find((i) => i.kind === 'tool');
    expect(card).toMatchObject({ card: { status: 'running', output: 'a\nb\n', toolCallId: 'tc1' } });
    const done = play(view, [
      {
        type: 'tool.finished',
        turn_id: 't',
        tool_call_id: 'tc1',
        status: 'completed',
        is_error: false,
        duration_ms: 12,
        preview: 'a\nb\n',
        exit_code: null,
        meta: null,
      },
    ]);
    expect(done.items.filter((i) => i.kind === 'tool')).toHaveLength(1);
    expect(done.items.find((i) => i.kind === 'tool')).toMatchObject({
      card: { status: 'completed', durationMs: 12 },
    });
    // The earlier view was not changed in place.
    expect(view.items.find((i) => i.kind === 'tool')).toMatchObject({ card: { status: 'running' } });
  });

  it('marks a question answered, and a closed one closed', () => {
    const question: Question = {
      id: 'q1',
      session_id: 's',
      turn_id: 't',
      tool_call_id: null,
      kind: 'question',
      question: 'Which?',
      options: ['a', 'b'],
      tool: null,
      permission: null,
      fork_id: null,
      elicitation: null,
      status: 'pending',
      answer: null,
      created_at: '',
      answered_at: null,
    };
    const asked = play(start(), [{ type: 'question.required', turn_id: 't', question }]);
    const answered = play(asked, [
      { type: 'question.answered', turn_id: 't', question_id: 'q1', answer: 'b' },
    ]);
    expect(answered.items.at(-1)).toMatchObject({
      kind: 'question',
      question: { status: 'answered', answer: 'b' },
    });
    const closed = play(asked, [
      { type: 'question.closed', turn_id: 't', question_id: 'q1', reason: 'cancelled' },
    ]);
    expect(closed.items.at(-1)).toMatchObject({ kind: 'question', question: { status: 'closed' } });
  });

  it('shows a card as waiting when it starts waiting for approval, and running once allowed', () => {
    const approval: Question = {
      id: 'q2',
      session_id: 's',
      turn_id: 't',
      tool_call_id: 'tc9',
      kind: 'approval',
      question: 'Allow Bash?',
      options: ['allow', 'deny'],
      tool: { name: 'Bash', input: { command: 'rm -rf build' } },
      permission: null,
      fork_id: null,
      elicitation: null,
      status: 'pending',
      answer: null,
      created_at: '',
      answered_at: null,
    };
    const waiting = play(start(), [
      {
        type: 'tool.started',
        turn_id: 't',
        tool_call_id: 'tc9',
        tool_use_id: 'tu9',
        name: 'Bash',
        input: {},
        status: 'waiting_approval',
        parent_tool_call_id: null,
        background: false,
      },
      { type: 'question.required', turn_id: 't', question: approval },
    ]);
    expect(waiting.items.find((i) => i.kind === 'tool')).toMatchObject({
      card: { status: 'waiting_approval' },
    });
    const allowed = play(waiting, [
      { type: 'question.answered', turn_id: 't', question_id: 'q2', answer: 'allow' },
    ]);
    expect(allowed.items.find((i) => i.kind === 'tool')).toMatchObject({ card: { status: 'running' } });
  });

  it('settles cards that never heard their end when the turn is cancelled or interrupted', () => {
    const running = play(start(), [
      {
        type: 'tool.started',
        turn_id: 't',
        tool_call_id: 'tc5',
        tool_use_id: 'tu5',
        name: 'Bash',
        input: {},
        status: 'running',
        parent_tool_call_id: null,
        background: false,
      },
    ]);
    const cancelled = play(running, [{ type: 'turn.cancelled', turn_id: 't' }]);
    expect(cancelled.items.find((i) => i.kind === 'tool')).toMatchObject({ card: { status: 'cancelled' } });
    const interrupted = play(running, [{ type: 'turn.interrupted', turn_id: 't', reason: 'Cairn stopped' }]);
    expect(interrupted.items.find((i) => i.kind === 'tool')).toMatchObject({
      card: { status: 'interrupted' },
    });
  });
});
