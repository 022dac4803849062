import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type { NewEvent, Turn, TurnPage } from '../../../sidecar/src/protocol';
import { SessionController } from '../../src/state/session-controller';
import { eventMaker } from '../support/journal-events';
import { scriptedStream } from '../support/scripted-stream';
import { storedTurn } from '../support/tool-calls';

// File changes reach the open session live: a turn's count of changed files (and whether they were recorded,
// or why not) is read again when it ends, and a revert (a turn without events of its own) is read on
// `files.reverted` and placed by its ordinal, once, even when the next turn starts while it is being read.

const ev = eventMaker('s');
const { messages: _m, tool_calls: _c, questions: _q, compactions: _v, ...first } = storedTurn('t1', []);
const revert: Turn = {
  ...first,
  id: 't2',
  ordinal: 2,
  kind: 'revert',
  reverted_turn_id: 't1',
  prompt: 'Restore files to before turn 1',
  files_changed: 2,
  files_recorded: true,
  not_restored: [{ path: 'big.bin', reason: 'too large to keep' }],
};

/** A session with one stored turn; getTurn answers with what `read(id)` gives, as the server has the turns now. */
function session(read: (id: string) => Promise<Turn>) {
  const page: TurnPage = { turns: [storedTurn('t1', [])], next_before: null, last_seq: 5 };
  const reads: string[] = [];
  const client = {
    listTurns: async () => page,
    turnEvents: async () => [],
    getSession: async () => ({ forks: [] }),
    getTurn: (id: string) => {
      reads.push(id);
      return read(id);
    },
  } as unknown as CairnClient;
  const { stream, deliver } = scriptedStream();
  const controller = new SessionController(client, stream, 's');
  return { controller, reads, emit: (e: NewEvent) => deliver(ev(e)) };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const reverted: NewEvent = {
  type: 'files.reverted',
  turn_id: 't2',
  ordinal: 2,
  reverted_turn_id: 't1',
  restored: ['a.txt'],
  not_restored: [{ path: 'big.bin', reason: 'too large to keep' }],
};
const order = (c: SessionController) => c.getSnapshot().turns.map((t) => [t.turn.id, t.turn.kind]);

describe('file changes in a live session', () => {
  it('reads how many files a turn changed, and whether they were recorded, when it ends', async () => {
    const note = 'The project has more than 100,000 files; Cairn did not record them.';
    const ended = { ...first, files_changed: 3, files_recorded: true, files_note: note };
    const { controller, emit } = session(async () => ended);
    await controller.start();
    expect(controller.getSnapshot().turns[0]?.turn).toMatchObject({
      files_changed: null,
      files_recorded: false,
    });
    emit({ type: 'turn.completed', turn_id: 't1', usage: null });
    await settled();
    expect(controller.getSnapshot().turns[0]?.turn).toMatchObject({
      files_changed: 3,
      files_recorded: true,
      files_note: note,
    });
    controller.dispose();
  });

  it('adds a revert at the end once, with the files it could not put back', async () => {
    const { controller, emit } = session(async () => revert);
    await controller.start();
    emit(reverted);
    await settled();
    emit(reverted);
    await settled();
    expect(order(controller)).toEqual([
      ['t1', 'prompt'],
      ['t2', 'revert'],
    ]);
    expect(controller.getSnapshot().turns[1]?.turn.not_restored).toEqual([
      { path: 'big.bin', reason: 'too large to keep' },
    ]);
    expect(controller.getSnapshot().running).toBeNull();
    controller.dispose();
  });

  it('places a revert read late before the turn that started meanwhile, and reads it once', async () => {
    let answer: (turn: Turn) => void = () => undefined;
    const pending = new Promise<Turn>((resolve) => {
      answer = resolve;
    });
    const { controller, emit, reads } = session(() => pending);
    await controller.start();
    emit(reverted);
    emit(reverted); // delivered again (a reconnect) while the first read is on its way
    emit({ type: 'turn.started', turn_id: 't3', ordinal: 3, prompt: 'next' });
    answer(revert);
    await settled();
    expect(reads).toEqual(['t2']);
    expect(order(controller)).toEqual([
      ['t1', 'prompt'],
      ['t2', 'revert'],
      ['t3', 'prompt'],
    ]);
    expect(controller.getSnapshot().running?.turn.id).toBe('t3');
    controller.dispose();
  });
});
