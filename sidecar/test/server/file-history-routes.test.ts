import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChanges, RevertResult, Turn } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

/** The API of a turn's changes and its revert, with real tool calls through the scripted model. */
describe('turn file changes and revert', () => {
  let h: Harness;
  let sessionId: string;
  const file = (rel: string) => path.join(h.projectDir, rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  /** Runs one turn whose model makes these tool calls (in order, one request each), then says done. */
  const turnWith = async (...calls: { name: string; input: Record<string, unknown> }[]): Promise<Turn> => {
    h.model.enqueue(
      ...calls.map((c) => ({ content: [{ type: 'tool_use' as const, name: c.name, input: c.input }] })),
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'change files');
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('completed');
    return ended;
  };
  const changesOf = async (turnId: string) =>
    (await h.api<FileChanges>('GET', `/api/turns/${turnId}/changes`)).body;

  beforeAll(async () => {
    h = await startHarness();
    fs.writeFileSync(file('keep.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(file('gone.txt'), 'to be removed\n');
    fs.writeFileSync(file('old-name.txt'), 'moving\n');
    ({ sessionId } = await h.newSession({ approval: 'auto' }));
  });
  afterAll(async () => h?.close());

  it('records Write, Edit and Bash (sed -i, rm, mv) as diffs under the turn', async () => {
    const turn = await turnWith(
      { name: 'Write', input: { path: 'new.txt', content: 'hello\n' } },
      { name: 'Edit', input: { path: 'keep.txt', old_string: 'two', new_string: 'TWO' } },
      {
        name: 'Bash',
        input: { command: "sed -i 's/three/3/' keep.txt && rm gone.txt && mv old-name.txt new-name.txt" },
      },
    );
    expect(turn.files_changed).toBe(5);
    const { changes, recorded } = await changesOf(turn.id);
    expect(recorded).toBe(true);
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['gone.txt', 'deleted'],
      ['keep.txt', 'modified'],
      ['new-name.txt', 'added'],
      ['new.txt', 'added'],
      ['old-name.txt', 'deleted'],
    ]);
    const keep = changes.find((c) => c.path === 'keep.txt')!;
    expect(keep.diff).toContain('--- a/keep.txt\n+++ b/keep.txt\n');
    expect(keep.diff).toContain('-two\n-three\n+TWO\n+3\n');
    expect([keep.additions, keep.deletions, keep.binary]).toEqual([2, 2, false]);
    expect(changes.find((c) => c.path === 'new.txt')!.diff).toContain('--- /dev/null\n+++ b/new.txt');
  });

  it('reverts the turn; a user edit since is a conflict until forced; the revert can be reverted', async () => {
    const turn = await turnWith({ name: 'Write', input: { path: 'notes.md', content: 'agent text\n' } });
    fs.writeFileSync(file('keep.txt'), 'edited by the user\n');

    const refused = await h.api<{ error: { code: string; details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${turn.id}/revert`,
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    // notes.md is the turn's own; keep.txt differs from before the turn only by the user's edit since.
    expect(refused.body.error.details.paths).toEqual(['keep.txt']);
    expect(read('notes.md')).toBe('agent text\n');

    const forced = await h.api<RevertResult>('POST', `/api/turns/${turn.id}/revert`, { force: true });
    expect(forced.status).toBe(200);
    expect(forced.body.restored).toEqual(['keep.txt', 'notes.md']);
    expect(fs.existsSync(file('notes.md'))).toBe(false);
    expect(read('keep.txt')).toBe('one\nTWO\n3\n');
    const revert = forced.body.turn;
    expect(revert).toMatchObject({
      kind: 'revert',
      reverted_turn_id: turn.id,
      status: 'completed',
      files_changed: 2,
    });
    const event = await h.waitForEvent(sessionId, (e) => e.type === 'files.reverted');
    expect(event).toMatchObject({
      turn_id: revert.id,
      reverted_turn_id: turn.id,
      restored: ['keep.txt', 'notes.md'],
    });
    expect((await changesOf(revert.id)).changes.map((c) => [c.path, c.status])).toEqual([
      ['keep.txt', 'modified'],
      ['notes.md', 'deleted'],
    ]);

    // Reverting the revert brings back the state it undid: the agent's file and the user's edit.
    const undo = await h.api<RevertResult>('POST', `/api/turns/${revert.id}/revert`, {});
    expect(undo.status).toBe(200);
    expect(read('notes.md')).toBe('agent text\n');
    expect(read('keep.txt')).toBe('edited by the user\n');
    expect(undo.body.turn.reverted_turn_id).toBe(revert.id);
  });

  it('says why a turn cannot be reverted or has no changes to show', async () => {
    const missing = await h.api<{ error: { code: string } }>('POST', '/api/turns/trn_nope/revert', {});
    expect(missing.status).toBe(404);
    const bad = await h.api<{ error: { code: string } }>('POST', `/api/turns/trn_nope/revert`, {
      force: 'yes',
    });
    expect(bad.status).toBe(400);
    const noProject = await h.api<{ id: string }>('POST', '/api/sessions', {});
    h.model.enqueue({ content: [{ type: 'text', text: 'hi' }] });
    const turn = await h.startTurn(noProject.body.id, 'hello');
    await h.waitForTurnEnd(turn.id);
    const changes = await changesOf(turn.id);
    expect(changes).toMatchObject({ changes: [], recorded: false });
    expect(changes.note).toMatch(/no project folder/);
    const refused = await h.api<{ error: { code: string; message: string } }>(
      'POST',
      `/api/turns/${turn.id}/revert`,
      {},
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/cannot be reverted/);
  });
});
