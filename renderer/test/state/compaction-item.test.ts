import { describe, expect, it } from 'vitest';
import type {
  ContextVersionInfo,
  Message,
  NewEvent,
  StructuredSummary,
  TurnWithDetails,
} from '../../../sidecar/src/protocol';
import {
  applyEvent,
  NO_FILE_HISTORY,
  type TurnView,
  turnFromHistory,
  turnFromStart,
} from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';

// Compactions in the conversation: placed where they happened in a stored turn, and followed live.
const ev = eventMaker('s');
const play = (view: TurnView, events: NewEvent[]) => events.reduce((v, e) => applyEvent(v, ev(e)), view);
const started = () =>
  turnFromStart(ev({ type: 'turn.started', turn_id: 't', ordinal: 1, prompt: 'go' }) as never);

const summary: StructuredSummary = {
  goal: 'read the logs',
  instruction: '',
  discoveries: ['the error is in b.log'],
  completed: ['read a.log'],
  current_status: 'reading b.log',
  likely_next_work: [],
  relevant_files_directories: [],
  remember: [],
};

const message = (id: number, role: Message['role'], content: Message['content']): Message => ({
  id,
  turn_id: 't',
  role,
  content,
  internal: false,
  created_at: '',
});

const version = (number: number, afterMessageId: number): ContextVersionInfo => ({
  number,
  parent: number - 1,
  level: number === 2 ? 'block' : 'session',
  reason: 'threshold',
  turn_id: 't',
  tokens_before: 9000,
  tokens_after: 3000,
  after_message_id: afterMessageId,
  summary: number === 2 ? null : summary,
  created_at: '',
});

function storedTurn(compactions: ContextVersionInfo[]): TurnWithDetails {
  const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { path: `${id}.log` } });
  const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'lines' });
  return {
    id: 't',
    session_id: 's',
    ordinal: 1,
    request_id: 'r',
    prompt: 'read the logs',
    status: 'completed',
    error: null,
    usage: null,
    cost: null,
    ...NO_FILE_HISTORY,
    continuations: 0,
    created_at: '',
    finished_at: '',
    answer: null,
    messages: [
      message(1, 'user', [{ type: 'text', text: 'read the logs' }]),
      message(2, 'assistant', [use('a')]),
      message(3, 'user', [result('a')]),
      message(4, 'assistant', [use('b')]),
      message(5, 'user', [result('b')]),
      message(6, 'assistant', [{ type: 'text', text: 'done' }]),
    ],
    tool_calls: [],
    questions: [],
    compactions,
  };
}

describe('compactions in the conversation', () => {
  it('sit after the message they followed in a stored turn, oldest first', () => {
    const view = turnFromHistory(storedTurn([version(3, 5), version(2, 3)]));
    expect(view.items.map((i) => (i.kind === 'compaction' ? `v${i.version}` : i.kind))).toEqual([
      'prompt',
      'tool',
      'v2',
      'tool',
      'v3',
      'text',
    ]);
    const session = view.items[4]!;
    expect(session).toMatchObject({ state: 'done', level: 'session', parent: 2, tokensBefore: 9000 });
    expect(session.kind === 'compaction' && session.summary?.goal).toBe('read the logs');
  });

  it('follow a live compaction from its start to its version', () => {
    const start = started();
    const running = play(start, [
      {
        type: 'context.compaction_started',
        turn_id: 't',
        level: 'turn',
        reason: 'agent',
        tokens_before: 5000,
      },
    ]);
    expect(running.items.at(-1)).toMatchObject({ kind: 'compaction', state: 'running', tokensBefore: 5000 });
    const done = play(running, [
      {
        type: 'context.compacted',
        turn_id: 't',
        version: 4,
        level: 'turn',
        reason: 'agent',
        tokens_before: 5000,
        tokens_after: 1200,
        summary,
      },
    ]);
    const cards = done.items.filter((i) => i.kind === 'compaction');
    expect(cards).toEqual([
      expect.objectContaining({ state: 'done', version: 4, parent: 3, tokensAfter: 1200, summary }),
    ]);
    // The card keeps its key from start to end, so React keeps the same element.
    expect(cards[0]!.key).toBe(running.items.at(-1)!.key);
  });

  it('show a failed compaction, and settle one the turn’s cancel cut short', () => {
    const start = started();
    const failed = play(start, [
      {
        type: 'context.compaction_started',
        turn_id: 't',
        level: 'session',
        reason: 'threshold',
        tokens_before: 9,
      },
      {
        type: 'context.compaction_failed',
        turn_id: 't',
        level: 'session',
        reason: 'threshold',
        error: { code: 'model_overloaded', message: 'overloaded' },
      },
    ]);
    expect(failed.items.filter((i) => i.kind === 'compaction')).toEqual([
      expect.objectContaining({
        state: 'failed',
        error: { code: 'model_overloaded', message: 'overloaded' },
      }),
    ]);
    const cancelled = play(start, [
      {
        type: 'context.compaction_started',
        turn_id: 't',
        level: 'loop',
        reason: 'threshold',
        tokens_before: 9,
      },
      { type: 'turn.cancelled', turn_id: 't' },
    ]);
    expect(cancelled.items.at(-1)).toMatchObject({ kind: 'compaction', state: 'failed' });
    expect(cancelled.items.at(-1)).toMatchObject({ error: { code: 'cancelled' } });
  });
});
