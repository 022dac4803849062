import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type {
  CairnEvent,
  ContextVersionInfo,
  ForkInfo,
  NewEvent,
  SessionDetail,
  TurnPage,
} from '../../../sidecar/src/protocol';
import { SessionController } from '../../src/state/session-controller';
import {
  applyEvent,
  type ForksItem,
  type TurnView,
  turnFromHistory,
  turnFromStart,
} from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';
import { scriptedStream } from '../support/scripted-stream';
import { storedToolCall, storedTurn } from '../support/tool-calls';

// Forks under the turn that spawned them: the group is read with the session's detail and kept up to date
// by `fork.updated`, placed right after the turn's Fork card; the agent's own context edits are notes.

const ev = eventMaker('s');

const fork = (patch: Partial<ForkInfo> & { fork_id: string }): ForkInfo => ({
  turn_id: 't1',
  task: `task of ${patch.fork_id}`,
  status: 'queued',
  response: null,
  created_at: '2026-01-01T00:00:02.000Z',
  ...patch,
});

const group = (view: TurnView | undefined): ForksItem | undefined =>
  view?.items.find((i): i is ForksItem => i.kind === 'forks');

const kinds = (view: TurnView | undefined) =>
  view?.items.map((i) => (i.kind === 'tool' ? i.card.name : i.kind));

/** A session whose one stored turn called Fork (spawn) and Bash, with `forks` in its detail. */
function sessionWithForks(forks: ForkInfo[]) {
  const spawn = storedToolCall({
    id: 'tc-fork',
    name: 'Fork',
    input: { method: 'spawn' },
    status: 'completed',
  });
  const bash = storedToolCall({ id: 'tc-bash', status: 'completed' });
  const page: TurnPage = { turns: [storedTurn('t1', [spawn, bash])], next_before: null, last_seq: 10 };
  const detail: SessionDetail = {
    id: 's',
    project_id: null,
    title: 'parent',
    approval: 'auto',
    mode: 'tools',
    created_at: '',
    updated_at: '',
    running_turn_id: null,
    parent_session_id: null,
    parent_turn_id: null,
    branched_from: null,
    branches: [],
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cost: null,
    },
    forks,
  };
  const reads: string[] = [];
  const client = {
    listTurns: async () => {
      reads.push('turns');
      return page;
    },
    turnEvents: async () => [],
    getSession: async () => {
      reads.push('detail');
      return detail;
    },
  } as unknown as CairnClient;
  const { stream, deliver } = scriptedStream();
  const controller = new SessionController(client, stream, 's');
  return { controller, reads, emit: (e: NewEvent) => deliver(ev(e)) };
}

const updated = (f: ForkInfo, turnId: string | null = 't1'): NewEvent => ({
  type: 'fork.updated',
  turn_id: turnId,
  fork: f,
});

describe('forks under their turn', () => {
  it('are read with the session after its page, go right after the Fork card, and follow fork.updated', async () => {
    const { controller, reads, emit } = sessionWithForks([fork({ fork_id: 'f1', status: 'running' })]);
    await controller.start();
    // After the page: the forks are at least as new as the journal position the page subscribes after.
    expect(reads).toEqual(['turns', 'detail']);
    const turn = () => controller.getSnapshot().turns[0];
    expect(kinds(turn())).toEqual(['prompt', 'Fork', 'forks', 'Bash', 'text']);
    expect(group(turn())?.forks).toMatchObject([{ fork_id: 'f1', status: 'running' }]);

    // A second fork is spawned, starts, and ends with its response; the first one ends too. The event is
    // routed by the fork's own turn, even when the journal filed it under no turn.
    emit(updated(fork({ fork_id: 'f2', status: 'queued' }), null));
    expect(group(turn())?.forks.map((f) => [f.fork_id, f.status])).toEqual([
      ['f1', 'running'],
      ['f2', 'queued'],
    ]);
    emit(updated(fork({ fork_id: 'f2', status: 'running' })));
    emit(updated(fork({ fork_id: 'f2', status: 'completed', response: 'Found **3** failing tests.' })));
    emit(updated(fork({ fork_id: 'f1', status: 'failed', response: 'model error' })));
    expect(group(turn())?.forks).toMatchObject([
      { fork_id: 'f1', status: 'failed', response: 'model error' },
      { fork_id: 'f2', status: 'completed', response: 'Found **3** failing tests.' },
    ]);
    // Still one group, where it was; and the session's list of forks (for what a fork asks) agrees.
    expect(kinds(turn())).toEqual(['prompt', 'Fork', 'forks', 'Bash', 'text']);
    expect(controller.getSnapshot().forks.map((f) => [f.fork_id, f.status])).toEqual([
      ['f1', 'failed'],
      ['f2', 'completed'],
    ]);
    controller.dispose();
  });

  it('leaves a turn without forks as it was', async () => {
    const { controller } = sessionWithForks([]);
    await controller.start();
    expect(kinds(controller.getSnapshot().turns[0])).toEqual(['prompt', 'Fork', 'Bash', 'text']);
    expect(controller.getSnapshot().error).toBeNull();
    controller.dispose();
  });

  it('in a live turn: the group appears after the spawning Fork card, and what the model says next follows it', () => {
    const started = turnFromStart(
      ev({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: 'split it' }) as Extract<
        CairnEvent,
        { type: 'turn.started' }
      >,
    );
    const response = (id: number, content: Record<string, unknown>[]): NewEvent => ({
      type: 'message.completed',
      turn_id: 't1',
      stop_reason: 'tool_use',
      message: {
        id,
        turn_id: 't1',
        role: 'assistant',
        content: content as never,
        internal: false,
        created_at: '',
      },
    });
    const events: NewEvent[] = [
      response(1, [{ type: 'tool_use', id: 'tu1', name: 'Fork', input: { method: 'spawn' } }]),
      {
        type: 'tool.started',
        turn_id: 't1',
        tool_call_id: 'tc1',
        tool_use_id: 'tu1',
        name: 'Fork',
        input: { method: 'spawn' },
        status: 'running',
        parent_tool_call_id: null,
        background: false,
      },
      updated(fork({ fork_id: 'f1' })),
      updated(fork({ fork_id: 'f1', status: 'running' })),
      response(2, [{ type: 'text', text: 'Waiting for the fork.' }]),
      updated(fork({ fork_id: 'f1', status: 'completed', response: 'done' })),
    ];
    const view = events.reduce((v, e) => applyEvent(v, ev(e)), started);
    expect(kinds(view)).toEqual(['prompt', 'Fork', 'forks', 'text']);
    expect(group(view)?.forks).toMatchObject([{ fork_id: 'f1', status: 'completed', response: 'done' }]);
  });
});

describe('the agent’s own context edits', () => {
  it('are a note once per version, live and from a stored turn', () => {
    const started = turnFromStart(
      ev({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: 'remember' }) as Extract<
        CairnEvent,
        { type: 'turn.started' }
      >,
    );
    const edited: NewEvent = {
      type: 'context.edited',
      turn_id: 't1',
      version: 4,
      messages: 2,
      system_prompt_addition: 'Answer in French.',
    };
    const live = [edited, edited].reduce((v, e) => applyEvent(v, ev(e)), started);
    expect(live.items.filter((i) => i.kind === 'context-edit')).toEqual([
      { kind: 'context-edit', key: 'context-edit-v4', version: 4 },
    ]);

    const stored = storedTurn('t1', []);
    const version: ContextVersionInfo = {
      number: 4,
      parent: 3,
      level: null,
      reason: 'agent_edit',
      turn_id: 't1',
      tokens_before: null,
      tokens_after: null,
      after_message_id: stored.messages[1]!.id,
      summary: null,
      created_at: '',
    };
    const view = turnFromHistory({ ...stored, compactions: [version] });
    expect(view.items.map((i) => i.kind)).toEqual(['prompt', 'context-edit', 'text']);
  });
});
