import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type { NewEvent, Turn, TurnPage } from '../../../sidecar/src/protocol';
import { SessionController } from '../../src/state/session-controller';
import { eventMaker } from '../support/journal-events';
import { scriptedStream } from '../support/scripted-stream';
import { storedTurn } from '../support/tool-calls';

// File changes reach the open session live: a turn's count of changed files is read again when it ends,
// and a revert (a turn without events of its own) is read and added at the end on `files.reverted`.

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
};

/** A session with one stored turn; getTurn answers from `stored`, as the server has the turns now. */
function session(stored: Record<string, Turn>) {
  const page: TurnPage = { turns: [storedTurn('t1', [])], next_before: null, last_seq: 5 };
  const client = {
    listTurns: async () => page,
    turnEvents: async () => [],
    getSession: async () => ({ forks: [] }),
    getTurn: async (id: string) => stored[id],
  } as unknown as CairnClient;
  const { stream, deliver } = scriptedStream();
  const controller = new SessionController(client, stream, 's');
  return { controller, emit: (e: NewEvent) => deliver(ev(e)) };
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

describe('file changes in a live session', () => {
  it('reads how many files a turn changed when it ends', async () => {
    const { controller, emit } = session({ t1: { ...first, files_changed: 3 } });
    await controller.start();
    expect(controller.getSnapshot().turns[0]?.turn.files_changed).toBeNull();
    emit({ type: 'turn.completed', turn_id: 't1', usage: null });
    await settled();
    expect(controller.getSnapshot().turns[0]?.turn.files_changed).toBe(3);
    controller.dispose();
  });

  it('adds a revert at the end once, with the files it could not put back', async () => {
    const { controller, emit } = session({ t2: revert });
    await controller.start();
    emit(reverted);
    await settled();
    emit(reverted);
    await settled();
    const turns = controller.getSnapshot().turns;
    expect(turns.map((t) => [t.turn.id, t.turn.kind])).toEqual([
      ['t1', 'prompt'],
      ['t2', 'revert'],
    ]);
    expect(turns[1]?.notRestored).toEqual([{ path: 'big.bin', reason: 'too large to keep' }]);
    expect(controller.getSnapshot().running).toBeNull();
    controller.dispose();
  });
});
