import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limiter, statter } from '../../src/tools/snapshots/project-scanner';
import { ProjectSnapshots } from '../../src/tools/snapshots/project-snapshots';
import { makeTempDir, removeDir } from './tool-context';

let tmp: string;
let root: string;

async function write(rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), text);
}

beforeAll(async () => {
  tmp = await makeTempDir('cairn-scanner-');
  root = path.join(tmp, 'proj');
  await write('.gitignore', '*.log\nbuild/\n');
  await write('a.txt', 'a\n');
  await write('app.log', 'log\n');
  await write('build/out.js', 'out\n');
  await write('sub/.gitignore', '!keep.log\nlocal.txt\n');
  await write('sub/keep.log', 'kept\n');
  await write('sub/drop.log', 'dropped\n');
  await write('sub/local.txt', 'local\n');
  await write('sub/deep/note.md', 'note\n');
  await write('other/x.txt', 'x\n');
  await write('other/local.txt', 'not ignored here\n');
  // A folder named `.gitignore` is not a rules file: its files are recorded like any others.
  await write('odd/.gitignore/inside.txt', 'inside\n');
  await write('node_modules/dep/index.js', 'dep\n');
  await write('.git/HEAD', 'ref: refs/heads/main\n');
});

afterAll(async () => {
  await removeDir(tmp);
});

describe('scanning a project', () => {
  it('records what .gitignore files leave, each folder’s own rules (added or changed) applying to it', async () => {
    const snapshots = new ProjectSnapshots(path.join(tmp, 'data'));
    const filesOf = async () => [
      ...(await snapshots.trees.files((await snapshots.record(root)).tree)).keys(),
    ];
    expect(await filesOf()).toEqual([
      '.gitignore',
      'a.txt',
      'odd/.gitignore/inside.txt',
      'other/local.txt',
      'other/x.txt',
      'sub/.gitignore',
      'sub/deep/note.md',
      'sub/keep.log',
    ]);

    // Rules read fresh on every scan: one edited, one new in a folder that had none.
    await write('sub/.gitignore', '!keep.log\n');
    await write('other/.gitignore', 'x.txt\n');
    expect(await filesOf()).toEqual([
      '.gitignore',
      'a.txt',
      'odd/.gitignore/inside.txt',
      'other/.gitignore',
      'other/local.txt',
      'sub/.gitignore',
      'sub/deep/note.md',
      'sub/keep.log',
      'sub/local.txt',
    ]);
  });

  it('stats on the spot while the file system is fast, and through the pool once it is slow', async () => {
    let pooled = 0;
    const pool = limiter(4);
    const io = <T>(task: () => Promise<T>) => {
      pooled++;
      return pool(task);
    };
    for (const budget of [
      { allowanceMs: Number.POSITIVE_INFINITY, perCallMs: 0, sliceMs: Number.POSITIVE_INFINITY },
      { allowanceMs: -1, perCallMs: 0, sliceMs: Number.POSITIVE_INFINITY },
    ]) {
      const lstat = statter(io, budget);
      const file = await lstat(path.join(root, 'a.txt'));
      const folder = await lstat(path.join(root, 'sub'));
      expect([file?.isFile(), file?.size, folder?.isDirectory()]).toEqual([true, 2, true]);
      expect(await lstat(path.join(root, 'missing.txt'))).toBeNull();
      expect(await lstat(path.join(root, 'a.txt', 'not-a-folder'))).toBeNull();
    }
    // Only the second, over its budget from the start, went through the pool: its four calls.
    expect(pooled).toBe(4);
  });

  it('synchronous stats give the event loop a turn once a slice is used up', async () => {
    const root = await makeTempDir();
    try {
      await fs.writeFile(path.join(root, 'a.txt'), 'a');
      const order: string[] = [];
      const lstat = statter(limiter(4), { allowanceMs: Number.POSITIVE_INFINITY, perCallMs: 0, sliceMs: 0 });
      const first = lstat(path.join(root, 'a.txt')).then(() => order.push('first'));
      setImmediate(() => order.push('immediate'));
      // Issued in the same tick as the first: with a slice of 0 it waits for the event loop's next turn.
      const second = lstat(path.join(root, 'a.txt')).then(() => order.push('second'));
      await Promise.all([first, second]);
      expect(order).toEqual(['first', 'immediate', 'second']);
    } finally {
      await removeDir(root);
    }
  });

  it('the limiter runs at most n at once and hands each freed slot to the next in line', async () => {
    const run = limiter(2);
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(i);
      active--;
    };
    await Promise.all(Array.from({ length: 3000 }, (_, i) => run(task(i))));
    expect(most).toBe(2);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    // Idle again, then busy: a queue emptied and filled anew still wakes every waiter.
    order.length = 0;
    await Promise.all(Array.from({ length: 5 }, (_, i) => run(task(i))));
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});
