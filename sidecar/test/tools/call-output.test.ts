import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store';
import { CallOutput } from '../../src/tools/runtime/call-output';
import { makeTempDir, removeDir } from './tool-context';

describe('CallOutput: a call’s progress on the journal', () => {
  let dir: string;
  let store: Store;
  let call: { sessionId: string; turnId: string; callId: string; callDir: string };

  beforeEach(async () => {
    dir = await makeTempDir('cairn-call-output-');
    store = Store.open(dir);
    const session = store.sessions.create({ projectId: null, approval: 'ask' });
    const turnId = store.turns.create(session.id, 'r1', 'go').id;
    call = { sessionId: session.id, turnId, callId: 'tc_1', callDir: path.join(dir, 'call') };
  });
  afterEach(async () => {
    store.close();
    await removeDir(dir);
  });

  const progressEvents = () =>
    store.events.after(call.sessionId, 0).filter((e) => e.type === 'tool.progress') as { progress: number }[];

  it('writes the first report, holds the next ones back and writes the newest of them as the call ends', () => {
    const output = new CallOutput(store, call);
    for (let i = 1; i <= 5; i++) output.progress({ progress: i, total: 5, message: null });
    expect(progressEvents().map((e) => e.progress)).toEqual([1]);
    output.close();
    expect(progressEvents().map((e) => e.progress)).toEqual([1, 5]);
  });

  it('writes nothing once the call has ended (it would follow its tool.finished)', () => {
    const output = new CallOutput(store, call);
    output.close();
    output.progress({ progress: 1, total: null, message: 'late' });
    expect(progressEvents()).toEqual([]);
  });
});
