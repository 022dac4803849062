import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChanges, RevertResult, Turn } from '../../src/protocol';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { STDLIB_KERNEL_ENV, waitForExecutionEnd } from '../support/kernel-harness';

/** The API of a turn's changes and its revert, with real tool calls through the scripted model. */
describe('turn file changes and revert', () => {
  let h: Harness;
  let sessionId: string;
  const file = (rel: string) => path.join(h.projectDir, rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  /** Runs one turn whose model makes these tool calls (in order, one request each), then says done. */
  const turnWith = async (...calls: { name: string; input: Record<string, unknown> }[]): Promise<Turn> =>
    turnIn(sessionId, ...calls);
  const turnIn = async (
    session: string,
    ...calls: { name: string; input: Record<string, unknown> }[]
  ): Promise<Turn> => {
    h.model.enqueue(
      ...calls.map((c) => ({ content: [{ type: 'tool_use' as const, name: c.name, input: c.input }] })),
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(session, 'change files');
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('completed');
    return ended;
  };
  const changesOf = async (turnId: string) =>
    (await h.api<FileChanges>('GET', `/api/turns/${turnId}/changes`)).body;

  beforeAll(async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
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
      files_recorded: true,
      not_restored: [],
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

    // The model is told of both restores with the next prompt, and only then.
    const textsOfNextRequest = async (prompt: string) => {
      h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
      await h.waitForTurnEnd((await h.startTurn(sessionId, prompt)).id);
      const last = h.model.requests.at(-1)!.body.messages.at(-1)!;
      return (last.content as { type: string; text: string }[]).map((b) => b.text);
    };
    const told = await textsOfNextRequest('what now');
    expect(told).toHaveLength(3);
    expect(told[0]).toMatch(
      /restored the project's files to how they were before the turn that began with "change files"/,
    );
    expect(told[1]).toMatch(/undid an earlier restore/);
    expect(told[2]).toBe('what now');
    expect(await textsOfNextRequest('and then')).toEqual(['and then']);
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

  it("records a kernel's writes in the agent's turn; the user's own cell between turns is a conflict", async () => {
    const turn = await turnWith({
      name: 'execute_code',
      input: { code: "open('from_kernel.csv', 'w').write('a,b\\n1,2\\n')" },
    });
    expect((await changesOf(turn.id)).changes).toMatchObject([
      { path: 'from_kernel.csv', status: 'added', diff: expect.stringContaining('+a,b\n+1,2\n') },
    ]);
    // The user runs a cell in the shared kernel after the turn: it belongs to no turn.
    const run = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: "open('from_kernel.csv', 'a').write('3,4\\n')",
    });
    expect(run.status).toBe(202);
    await waitForExecutionEnd(h, sessionId, 2);
    const refused = await h.api<{ error: { details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${turn.id}/revert`,
      {},
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.paths).toEqual(['from_kernel.csv']);
    expect(read('from_kernel.csv')).toBe('a,b\n1,2\n3,4\n');
  });

  it('shows binary files without a diff and restores their bytes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0x00]);
    fs.writeFileSync(file('image.png'), png);
    const turn = await turnWith({
      name: 'Bash',
      input: { command: "printf '\\000\\001changed' > image.png" },
    });
    const [change] = (await changesOf(turn.id)).changes;
    expect(change).toMatchObject({ path: 'image.png', status: 'modified', binary: true, diff: null });
    const reverted = await h.api<RevertResult>('POST', `/api/turns/${turn.id}/revert`, {});
    expect(reverted.status).toBe(200);
    expect(fs.readFileSync(file('image.png')).equals(png)).toBe(true);
  });

  it("never touches a project's own .git (index, stash) and keeps node_modules out of the store", async () => {
    const repo = tempDir('git-project');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    fs.writeFileSync(path.join(repo, 'tracked.txt'), 'v1\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'build/\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    fs.writeFileSync(path.join(repo, 'tracked.txt'), 'stashed\n');
    git('stash', '-q');
    fs.writeFileSync(path.join(repo, 'staged.txt'), 'in the index\n');
    git('add', 'staged.txt');
    fs.mkdirSync(path.join(repo, 'node_modules', 'big'), { recursive: true });
    const secretDep = 'module.exports = "dependency-content-0123456789";\n';
    fs.writeFileSync(path.join(repo, 'node_modules', 'big', 'index.js'), secretDep);
    fs.mkdirSync(path.join(repo, 'build'));
    fs.writeFileSync(path.join(repo, 'build', 'out.js'), 'built\n');
    const gitState = () => {
      const files: Record<string, string> = {};
      for (const rel of fs.readdirSync(path.join(repo, '.git'), { recursive: true, encoding: 'utf8' })) {
        const abs = path.join(repo, '.git', rel);
        if (fs.statSync(abs).isFile())
          files[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
      }
      return { files, status: git('status', '--porcelain'), stash: git('stash', 'list') };
    };
    const before = gitState();

    const project = await h.api<{ id: string }>('POST', '/api/projects', { path: repo });
    const session = await h.api<{ id: string }>('POST', '/api/sessions', {
      project_id: project.body.id,
      approval: 'auto',
    });
    const turn = await turnIn(session.body.id, {
      name: 'Bash',
      input: {
        command:
          'echo v2 > tracked.txt && echo more >> node_modules/big/index.js && echo again > build/out.js && echo new > added.txt',
      },
    });
    expect((await changesOf(turn.id)).changes.map((c) => c.path)).toEqual(['added.txt', 'tracked.txt']);
    const reverted = await h.api<RevertResult>('POST', `/api/turns/${turn.id}/revert`, {});
    expect(reverted.status).toBe(200);
    expect(reverted.body.restored).toEqual(['added.txt', 'tracked.txt']);
    expect(fs.readFileSync(path.join(repo, 'tracked.txt'), 'utf8')).toBe('v1\n');
    expect(fs.existsSync(path.join(repo, 'added.txt'))).toBe(false);
    // Ignored and dependency folders are neither recorded nor restored: said so in the README.
    expect(fs.readFileSync(path.join(repo, 'build', 'out.js'), 'utf8')).toBe('again\n');
    expect(fs.readFileSync(path.join(repo, 'node_modules', 'big', 'index.js'), 'utf8')).toBe(
      `${secretDep}more\n`,
    );
    expect(gitState()).toEqual(before);

    // The store holds the project's files, never the dependency's.
    const objects = path.join(h.dataDir, 'snapshots', project.body.id, 'objects');
    const stored = fs
      .readdirSync(objects, { recursive: true, encoding: 'utf8' })
      .filter((rel) => fs.statSync(path.join(objects, rel)).isFile())
      .map((rel) => zlib.inflateRawSync(fs.readFileSync(path.join(objects, rel))).toString('utf8'));
    expect(stored).toContain('v1\n');
    expect(stored.some((text) => text.includes('dependency-content'))).toBe(false);
    expect(stored.some((text) => text.includes('built'))).toBe(false);
    // A project without git gets none.
    expect(fs.existsSync(path.join(h.projectDir, '.git'))).toBe(false);
    // Deleting the project deletes its recordings.
    expect((await h.api('DELETE', `/api/projects/${project.body.id}`)).status).toBe(204);
    expect(fs.existsSync(path.join(h.dataDir, 'snapshots', project.body.id))).toBe(false);
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('refuses a revert while a turn runs in the project, in this session or another', async () => {
    const done = await turnWith({ name: 'Write', input: { path: 'later.txt', content: 'x' } });
    const other = await h.api<{ id: string }>('POST', '/api/sessions', {
      project_id: (await h.api<{ project_id: string }>('GET', `/api/sessions/${sessionId}`)).body.project_id,
    });
    for (const session of [sessionId, other.body.id]) {
      h.model.enqueue({ content: [{ type: 'text', text: 'thinking' }], hang: true });
      const running = await h.startTurn(session, 'long work');
      await h.model.waitForRequests(h.model.requests.length + 1);
      const refused = await h.api<{ error: { code: string } }>('POST', `/api/turns/${done.id}/revert`, {});
      expect([refused.status, refused.body.error.code]).toEqual([409, 'turn_running']);
      await h.api('POST', `/api/turns/${running.id}/cancel`);
    }
    expect(read('later.txt')).toBe('x');
  });

  it('an earlier turn: edits between turns are conflicts, the later turn alone reverts cleanly', async () => {
    const first = await turnWith({ name: 'Write', input: { path: 'gap-a.txt', content: 'turn one\n' } });
    fs.writeFileSync(file('gap-a.txt'), 'the user, between turns\n');
    const second = await turnWith({ name: 'Write', input: { path: 'gap-b.txt', content: 'turn two\n' } });
    const refused = await h.api<{ error: { details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${first.id}/revert`,
      {},
    );
    expect([refused.status, refused.body.error.details.paths]).toEqual([409, ['gap-a.txt']]);
    const reverted = await h.api<RevertResult>('POST', `/api/turns/${second.id}/revert`, {});
    expect([reverted.status, reverted.body.restored]).toEqual([200, ['gap-b.txt']]);
    expect(read('gap-a.txt')).toBe('the user, between turns\n');
  });

  it("a file the user writes while a turn runs, outside the turn's tool calls, is not the turn's", async () => {
    h.model.enqueue({ content: [{ type: 'text', text: 'thinking' }], hang: true });
    const turn = await h.startTurn(sessionId, 'think long');
    await h.model.waitForRequests(h.model.requests.length + 1);
    fs.writeFileSync(file('during.txt'), 'typed by the user while the model thought\n');
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.files_changed).toBe(1);
    const refused = await h.api<{ error: { details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${turn.id}/revert`,
      {},
    );
    expect([refused.status, refused.body.error.details.paths]).toEqual([409, ['during.txt']]);
    expect(read('during.txt')).toContain('typed by the user');
  });

  it("another session's turn that ran meanwhile: what it changed is a conflict", async () => {
    const projectId = (await h.api<{ project_id: string }>('GET', `/api/sessions/${sessionId}`)).body
      .project_id;
    const other = (
      await h.api<{ id: string }>('POST', '/api/sessions', { project_id: projectId, approval: 'auto' })
    ).body.id;
    // This session's Bash waits for a flag, so the other session's write falls inside one of its tool calls.
    h.model.enqueue({
      content: [
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'while [ ! -f go.flag ]; do sleep 0.05; done; echo mine > mine.txt' },
        },
      ],
    });
    const waiting = await h.startTurn(sessionId, 'wait for the flag');
    await h.waitForEvent(sessionId, (e) => e.type === 'tool.started' && e.turn_id === waiting.id);
    await turnIn(other, { name: 'Write', input: { path: 'theirs.txt', content: 'the other session\n' } });
    h.model.enqueue({ content: [{ type: 'text', text: 'done' }] });
    fs.writeFileSync(file('go.flag'), '');
    expect((await h.waitForTurnEnd(waiting.id)).status).toBe('completed');
    const refused = await h.api<{ error: { details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${waiting.id}/revert`,
      {},
    );
    expect([refused.status, refused.body.error.details.paths]).toEqual([409, ['theirs.txt']]);
    expect(read('theirs.txt')).toBe('the other session\n');
  });

  it('after a crash during a turn, edits since cannot be told from its own: conflicts until forced', async () => {
    const first = await turnWith({
      name: 'Write',
      input: { path: 'crash.txt', content: 'before the crash\n' },
    });
    const second = await turnWith({ name: 'Write', input: { path: 'crash-2.txt', content: 'during\n' } });
    // What recovery leaves of a turn Cairn stopped during: interrupted, no recording as it ended.
    h.server.core.store.db
      .prepare(
        "UPDATE turns SET status = 'interrupted', files_after = NULL, files_changed = NULL WHERE id = ?",
      )
      .run(second.id);
    fs.writeFileSync(file('crash.txt'), 'edited after the restart\n');
    const refused = await h.api<{ error: { details: { paths: string[] } } }>(
      'POST',
      `/api/turns/${first.id}/revert`,
      {},
    );
    expect([refused.status, refused.body.error.details.paths]).toEqual([409, ['crash-2.txt', 'crash.txt']]);
    expect((await changesOf(second.id)).note).toMatch(/Cairn stopped while this turn ran/);
  });

  it('reverts a turn that made a folder where a file was, with no conflict', async () => {
    fs.writeFileSync(file('thing'), 'a file\n');
    const turn = await turnWith({
      name: 'Bash',
      input: { command: 'rm thing && mkdir thing && echo x > thing/a' },
    });
    const reverted = await h.api<RevertResult>('POST', `/api/turns/${turn.id}/revert`, {});
    expect([reverted.status, reverted.body.restored]).toEqual([200, ['thing', 'thing/a']]);
    expect(read('thing')).toBe('a file\n');
  });
});
