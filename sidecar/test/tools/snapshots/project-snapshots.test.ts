import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfinedFs } from '../../../src/tools/snapshots/confined-fs';
import { MAX_KEPT_BYTES } from '../../../src/tools/snapshots/project-scanner';
import { ProjectSnapshots } from '../../../src/tools/snapshots/project-snapshots';

/** The snapshot engine in process: a real project folder, a real store folder. */
describe('project snapshots', () => {
  let base: string;
  let root: string;
  let snaps: ProjectSnapshots;
  const file = (rel: string) => path.join(root, ...rel.split('/'));
  const write = (rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
    fs.writeFileSync(file(rel), text);
  };
  const record = async () => (await snaps.record(root)).tree;
  /** Restores `target` from the files as they are now. */
  const restore = async (target: string) => {
    const now = await record();
    return snaps.exclusive(async () => snaps.restore(root, target, await snaps.changes(now, target)));
  };

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-snapshots-')));
    root = path.join(base, 'project');
    fs.mkdirSync(root);
    snaps = new ProjectSnapshots(path.join(base, 'store'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('leaves out .git, dependency folders and what .gitignore files exclude (nested ones too)', async () => {
    write('src/app.ts', 'app');
    write('.git/HEAD', 'ref: refs/heads/main');
    write('node_modules/dep/index.js', 'dep');
    write('.venv/lib/site.py', 'site');
    write('.gitignore', '*.log\n');
    write('debug.log', 'log');
    write('src/.gitignore', 'gen/\n!keep.log\n');
    write('src/gen/out.ts', 'generated');
    write('src/keep.log', 'kept by a nested rule');
    const tree = await record();
    expect([...(await snaps.trees.files(tree)).keys()].sort()).toEqual([
      '.gitignore',
      'src/.gitignore',
      'src/app.ts',
      'src/keep.log',
    ]);
  });

  it('sees a change whose size and modification time were put back (its ctime moved)', async () => {
    write('a.txt', 'aaaa');
    const old = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(file('a.txt'), old, old);
    const first = await record();
    // Read a second time from the cache (the file is not racy: its time is long before the read).
    expect(await record()).toBe(first);
    fs.writeFileSync(file('a.txt'), 'bbbb');
    fs.utimesSync(file('a.txt'), old, old);
    const second = await record();
    expect((await snaps.changes(first, second)).map((c) => c.path)).toEqual(['a.txt']);
  });

  it('records links as links and never restores through one where a folder was', async () => {
    write('sub/a.txt', 'inside');
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'a.txt'), 'outside');
    const before = await record();
    fs.rmSync(file('sub'), { recursive: true });
    fs.symlinkSync(outside, file('sub'));
    const after = await record();
    const files = await snaps.trees.files(after);
    expect(files.get('sub')?.kind).toBe('link');
    expect(files.has('sub/a.txt')).toBe(false);

    const result = await restore(before);
    expect(result.notRestored).toEqual([]);
    expect(fs.lstatSync(file('sub')).isDirectory()).toBe(true);
    expect(fs.readFileSync(file('sub/a.txt'), 'utf8')).toBe('inside');
    expect(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('outside');
    // And the link comes back when the later state is restored.
    await restore(after);
    expect(fs.readlinkSync(file('sub'))).toBe(outside);
  });

  it('keeps files over the size limit by size and time only: no diff, not restorable, said so', async () => {
    write('big.bin', Buffer.alloc(MAX_KEPT_BYTES + 1, 1));
    const before = await record();
    fs.appendFileSync(file('big.bin'), 'x');
    const after = await record();
    const [change] = await snaps.fileChanges(await snaps.changes(before, after));
    expect(change).toMatchObject({ path: 'big.bin', status: 'modified', too_large: true, diff: null });
    const result = await restore(before);
    expect(result.notRestored).toEqual([
      { path: 'big.bin', reason: expect.stringMatching(/larger than 10 MB/) },
    ]);
  });

  it('tells binary and non-UTF-8 files from text, and diffs a deletion against /dev/null', async () => {
    write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    write('gone.txt', 'last words\n');
    const before = await record();
    fs.appendFileSync(file('latin1.txt'), Buffer.from([0xe9]));
    fs.rmSync(file('gone.txt'));
    const changes = await snaps.fileChanges(await snaps.changes(before, await record()));
    expect(changes).toMatchObject([
      { path: 'gone.txt', status: 'deleted', binary: false, deletions: 1, additions: 0 },
      { path: 'latin1.txt', status: 'modified', binary: true, diff: null },
    ]);
    expect(changes[0]!.diff).toContain('--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-last words\n');
  });

  it('a restore leaves alone a file its target ignored, and removes folders the removed files leave empty', async () => {
    write('.gitignore', 'secret.env\n');
    write('secret.env', 'TOKEN=1');
    write('keep/old.txt', 'old');
    const before = await record();
    // A turn un-ignores the secret and adds files in new folders.
    write('.gitignore', '');
    write('new/deep/file.txt', 'new');
    write('keep/added.txt', 'added');
    fs.writeFileSync(file('run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const result = await restore(before);
    expect(result.restored).toEqual(['.gitignore', 'keep/added.txt', 'new/deep/file.txt', 'run.sh']);
    expect(fs.readFileSync(file('secret.env'), 'utf8')).toBe('TOKEN=1');
    expect(fs.existsSync(file('new'))).toBe(false);
    expect(fs.readdirSync(file('keep'))).toEqual(['old.txt']);
    expect(fs.readFileSync(file('.gitignore'), 'utf8')).toBe('secret.env\n');
  });

  it('restores the executable bit', async () => {
    fs.writeFileSync(file('run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const before = await record();
    fs.rmSync(file('run.sh'));
    await restore(before);
    expect(fs.statSync(file('run.sh')).mode & 0o111).not.toBe(0);
  });

  it('collects the objects no live tree (nor the stat cache) uses, and only those', async () => {
    write('a.txt', 'first version');
    write('b.txt', 'shared');
    const old = await record();
    write('a.txt', 'second version');
    const live = await record();
    const objects = () => fs.readdirSync(path.join(base, 'store', 'objects'), { recursive: true }).length;
    const before = objects();
    // A cut-off in the future: every unused object counts as old.
    expect(await snaps.collectGarbage([live], -60_000)).toBe(2); // old's root tree and "first version"
    expect(objects()).toBe(before - 2);
    expect([...(await snaps.trees.files(live)).keys()]).toEqual(['a.txt', 'b.txt']);
    await expect(snaps.objects.get((await snaps.trees.files(live)).get('b.txt')!.id)).resolves.toEqual(
      Buffer.from('shared'),
    );
    expect(old).not.toBe(live);
    // With the default age nothing recent goes, whatever is live.
    write('c.txt', 'new');
    await record();
    expect(await snaps.collectGarbage([])).toBe(0);
  });

  it('a restored file keeps the mode it has (a private key stays 0600)', async () => {
    fs.writeFileSync(file('id_key'), 'secret v1', { mode: 0o600 });
    fs.chmodSync(file('id_key'), 0o600);
    const before = await record();
    fs.writeFileSync(file('id_key'), 'secret v2');
    await restore(before);
    expect(fs.readFileSync(file('id_key'), 'utf8')).toBe('secret v1');
    expect(fs.statSync(file('id_key')).mode & 0o777).toBe(0o600);
  });

  it("never records a folder it is told to leave out (Cairn's data directory inside a project)", async () => {
    const excluded = new ProjectSnapshots(path.join(base, 'store2'), [path.join(root, '.cairn')]);
    write('.cairn/cairn.db', 'database');
    write('src/a.ts', 'a');
    const tree = (await excluded.record(root)).tree;
    expect([...(await excluded.trees.files(tree)).keys()]).toEqual(['src/a.ts']);
  });

  it('never acts through a folder that became a link, even when asked directly', async () => {
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'victim.txt'), 'outside');
    fs.symlinkSync(outside, file('sub'));
    const confined = new ConfinedFs(root);
    expect(() => confined.unlink('sub/victim.txt')).toThrow(/link or a file now/);
    expect(() => confined.write('sub/planted.txt', { bytes: Buffer.from('x'), mode: 0o644 })).toThrow(
      /link or a file now/,
    );
    expect(() => confined.write('../escape.txt', { bytes: Buffer.from('x'), mode: 0o644 })).toThrow(
      /Not a path/,
    );
    expect(confined.lstat('sub/victim.txt')).toBeNull();
    expect(fs.readdirSync(outside)).toEqual(['victim.txt']);
    expect(fs.existsSync(path.join(base, 'escape.txt'))).toBe(false);
  });

  it('a revert leaves a large file a turn added rather than lose it for good', async () => {
    const before = await record();
    write('model.ckpt', Buffer.alloc(MAX_KEPT_BYTES + 1, 2));
    const result = await restore(before);
    expect(fs.statSync(file('model.ckpt')).size).toBe(MAX_KEPT_BYTES + 1);
    expect(result.notRestored).toEqual([
      { path: 'model.ckpt', reason: expect.stringMatching(/keeps no copy/) },
    ]);
  });

  it('a .gitignore that is a pipe or a link to a device is not read: the scan neither hangs nor swells', async () => {
    fs.mkdirSync(file('piped'));
    execFileSync('mkfifo', [file('piped/.gitignore')]);
    fs.mkdirSync(file('linked'));
    fs.symlinkSync('/dev/zero', file('linked/.gitignore'));
    write('piped/a.txt', 'a');
    write('linked/b.txt', 'b');
    const files = await snaps.trees.files(await record());
    expect([...files.keys()].sort()).toEqual(['linked/.gitignore', 'linked/b.txt', 'piped/a.txt']);
  });
});
