import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, NewEvent, TurnPage } from '../../../sidecar/src/protocol';
import { SessionController } from '../../src/state/session-controller';
import type { NestedItem, ToolItem } from '../../src/state/tool-items';
import { applyEvent, type TurnView, turnFromHistory, turnFromStart } from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';
import { scriptedStream } from '../support/scripted-stream';
import { approvalFor, storedToolCall, storedTurn } from '../support/tool-calls';

// Background calls and the calls scripts start, as tool cards: a background card runs on after its turn and
// hears its end from events carrying the old turn's id; script calls nest under the call that started them,
// live and after a reload, with their approvals beside them.

const ev = eventMaker('s');

function start(turnId = 't1'): TurnView {
  return turnFromStart(
    ev({ type: 'turn.started', turn_id: turnId, ordinal: 1, prompt: 'hi' }) as Extract<
      CairnEvent,
      { type: 'turn.started' }
    >,
  );
}

const play = (view: TurnView, events: NewEvent[]) => events.reduce((v, e) => applyEvent(v, ev(e)), view);

const tools = (items: readonly { kind: string }[]): ToolItem[] =>
  items.filter((i): i is ToolItem => i.kind === 'tool');

/** The model's Bash call in turn `turnId`: its tool_use, then its start (in the background or not). */
function bashCall(turnId: string, callId: string, background: boolean): NewEvent[] {
  return [
    {
      type: 'message.completed',
      turn_id: turnId,
      stop_reason: 'tool_use',
      message: {
        id: 1,
        turn_id: turnId,
        role: 'assistant',
        content: [{ type: 'tool_use', id: `tu-${callId}`, name: 'Bash', input: { command: 'make' } }],
        internal: false,
        created_at: '',
      },
    },
    {
      type: 'tool.started',
      turn_id: turnId,
      tool_call_id: callId,
      tool_use_id: `tu-${callId}`,
      name: 'Bash',
      input: { command: 'make' },
      status: 'running',
      parent_tool_call_id: null,
      background,
    },
  ];
}

function scriptStarted(callId: string, parent: string, status: 'running' | 'waiting_approval'): NewEvent {
  return {
    type: 'tool.started',
    turn_id: 't1',
    tool_call_id: callId,
    tool_use_id: `script_${callId}`,
    name: 'Write',
    input: { path: 'out.txt', content: 'x' },
    status,
    parent_tool_call_id: parent,
    background: false,
  };
}

function finished(callId: string, status: 'completed' | 'cancelled' | 'failed', turnId = 't1'): NewEvent {
  return {
    type: 'tool.finished',
    turn_id: turnId,
    tool_call_id: callId,
    status,
    is_error: status !== 'completed',
    duration_ms: 4200,
    preview: 'built',
    exit_code: status === 'completed' ? 0 : null,
    meta: null,
  };
}

describe('background tool cards', () => {
  it('keeps running after the turn ends (completed or cancelled) and settles on its own tool.finished', () => {
    const running = play(start(), bashCall('t1', 'tc1', true));
    expect(tools(running.items)[0]!.card).toMatchObject({ status: 'running', background: true });

    for (const end of [
      { type: 'turn.completed', turn_id: 't1', usage: null },
      { type: 'turn.cancelled', turn_id: 't1' },
    ] as NewEvent[]) {
      const ended = play(running, [end]);
      expect(ended.turn.status).not.toBe('running');
      expect(tools(ended.items)[0]!.card.status).toBe('running');
      const done = play(ended, [
        { type: 'tool.output', turn_id: 't1', tool_call_id: 'tc1', stream: 'stdout', text: 'step 1\n' },
        finished('tc1', 'completed'),
      ]);
      expect(tools(done.items)[0]!.card).toMatchObject({
        status: 'completed',
        output: 'step 1\n',
        exitCode: 0,
        durationMs: 4200,
      });
    }
    // A waited call still settles with its cancelled turn.
    const waited = play(start(), [
      ...bashCall('t1', 'tc2', false),
      { type: 'turn.cancelled', turn_id: 't1' },
    ]);
    expect(tools(waited.items)[0]!.card.status).toBe('cancelled');
  });

  it('takes its current state from the stored call after a reload, not from its receipt', () => {
    const still = storedToolCall({ id: 'tc1', background: true, status: 'running' });
    const reloaded = turnFromHistory(storedTurn('t1', [still]));
    expect(tools(reloaded.items)[0]!.card).toMatchObject({
      toolCallId: 'tc1',
      status: 'running',
      background: true,
      preview: null,
    });
    const ended = storedToolCall({
      ...still,
      status: 'failed',
      is_error: true,
      preview: 'boom\n[exit code 3]',
      duration_ms: 900,
      exit_code: 3,
      finished_at: '2026-01-01T00:00:09.000Z',
    });
    expect(tools(turnFromHistory(storedTurn('t1', [ended])).items)[0]!.card).toMatchObject({
      status: 'failed',
      preview: 'boom\n[exit code 3]',
      exitCode: 3,
    });
  });

  it("reaches the old turn's card when it ends while a later turn runs, and after that turn", async () => {
    const page: TurnPage = {
      turns: [storedTurn('t1', [storedToolCall({ id: 'tc1', background: true })])],
      next_before: null,
      last_seq: 10,
    };
    const client = { listTurns: async () => page, turnEvents: async () => [] } as unknown as CairnClient;
    const { stream, deliver } = scriptedStream();
    const controller = new SessionController(client, stream, 's');
    await controller.start();
    const make = eventMaker('s');
    const send = (e: NewEvent) => {
      const event = make(e);
      deliver({ ...event, seq: 100 + event.seq });
    };
    send({ type: 'turn.started', turn_id: 't2', ordinal: 2, prompt: 'next' });
    send({ type: 'tool.output', turn_id: 't1', tool_call_id: 'tc1', stream: 'stdout', text: 'late\n' });
    const card = () => tools(controller.getSnapshot().turns[0]!.items)[0]!.card;
    expect(card()).toMatchObject({ status: 'running', output: 'late\n' });
    expect(controller.getSnapshot().running?.turn.id).toBe('t2');
    send({ type: 'turn.completed', turn_id: 't2', usage: null });
    send(finished('tc1', 'cancelled'));
    expect(card().status).toBe('cancelled');
    controller.dispose();
  });
});

describe('calls started by scripts', () => {
  it('nest under their parent live, with their approval beside them, and follow tool.running', () => {
    const nestedOf = (view: TurnView): NestedItem[] => tools(view.items)[0]!.nested;
    const parentRunning = play(start(), bashCall('t1', 'tc1', true));
    const waiting = play(parentRunning, [scriptStarted('tc2', 'tc1', 'waiting_approval')]);
    expect(tools(waiting.items)).toHaveLength(1);
    expect(nestedOf(waiting)).toMatchObject([
      { kind: 'tool', card: { toolCallId: 'tc2', status: 'waiting_approval', parentToolCallId: 'tc1' } },
    ]);

    // The question may come after the turn ended (a background call's script): it still lands there.
    const script = storedToolCall({ id: 'tc2', name: 'Write', parent_tool_call_id: 'tc1' });
    const asked = play(waiting, [
      { type: 'turn.completed', turn_id: 't1', usage: null },
      { type: 'question.required', turn_id: 't1', question: approvalFor(script) },
      scriptStarted('tc3', 'tc1', 'running'),
    ]);
    expect(nestedOf(asked).map((n) => n.key)).toEqual(['tool-script_tc2', 'q-q-tc2', 'tool-script_tc3']);
    expect(asked.items.filter((i) => i.kind === 'question')).toHaveLength(0);

    const allowed = play(asked, [
      { type: 'question.answered', turn_id: 't1', question_id: 'q-tc2', answer: 'allow' },
    ]);
    expect(nestedOf(allowed)[1]).toMatchObject({ question: { status: 'answered', answer: 'allow' } });
    expect(nestedOf(allowed)[0]).toMatchObject({ card: { status: 'running' } });
    // tool.running says the same (the answer may come from another window).
    const ran = play(asked, [{ type: 'tool.running', turn_id: 't1', tool_call_id: 'tc2' }]);
    expect(nestedOf(ran)[0]).toMatchObject({ card: { status: 'running' } });
    const done = play(ran, [finished('tc2', 'completed')]);
    expect(nestedOf(done)[0]).toMatchObject({ card: { status: 'completed', preview: 'built' } });
  });

  it('nest a script call of a script call, and stand alone when their parent is not in the turn', () => {
    const view = play(start(), [
      ...bashCall('t1', 'tc1', false),
      { ...scriptStarted('tc2', 'tc1', 'running'), name: 'Bash' } as NewEvent,
      scriptStarted('tc3', 'tc2', 'running'),
      scriptStarted('tc9', 'tc_elsewhere', 'running'),
    ]);
    const [parent, orphan] = tools(view.items);
    expect(parent!.nested).toMatchObject([
      { card: { toolCallId: 'tc2' }, nested: [{ card: { toolCallId: 'tc3' } }] },
    ]);
    expect(orphan!.card.toolCallId).toBe('tc9');
  });

  it('nest under their parent after a reload, with their questions, in the order they started', () => {
    const parent = storedToolCall({ id: 'tc1', background: true });
    const first = storedToolCall({
      id: 'tc2',
      name: 'Write',
      tool_use_id: 'script_a',
      parent_tool_call_id: 'tc1',
      status: 'completed',
      preview: 'Wrote out.txt',
    });
    const second = storedToolCall({
      id: 'tc3',
      name: 'Write',
      tool_use_id: 'script_b',
      parent_tool_call_id: 'tc1',
      status: 'waiting_approval',
    });
    const view = turnFromHistory(storedTurn('t1', [parent, first, second], [approvalFor(second)]));
    const [card, ...others] = tools(view.items);
    expect(others).toHaveLength(0);
    expect(card!.nested.map((n) => n.key)).toEqual(['tool-script_a', 'tool-script_b', 'q-q-tc3']);
    expect(card!.nested[0]).toMatchObject({ card: { status: 'completed', preview: 'Wrote out.txt' } });
    expect(view.items.filter((i) => i.kind === 'question')).toHaveLength(0);
    expect(view.items.map((i) => i.kind)).toEqual(['prompt', 'tool', 'text']);
  });
});
