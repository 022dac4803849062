import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertRegularFile,
  displayPath,
  isPathInside,
  isSamePath,
  isWindowsDeviceName,
  requireProjectRoot,
  resolveInside,
} from '../../src/tools/path-guard';
import { ToolError } from '../../src/tools/tool';
import { makeContext, makeTempDir, removeDir } from './tool-context';

const posixOnly = it.skipIf(process.platform === 'win32');

describe('isPathInside', () => {
  it('accepts the root and paths below it, rejects siblings sharing a prefix', () => {
    expect(isPathInside('/p/proj', '/p/proj', 'linux')).toBe(true);
    expect(isPathInside('/p/proj', '/p/proj/a/b', 'linux')).toBe(true);
    expect(isPathInside('/p/proj', '/p/proj/..foo', 'linux')).toBe(true);
    expect(isPathInside('/p/proj', '/p/proj-evil/x', 'linux')).toBe(false);
    expect(isPathInside('/p/proj', '/p', 'linux')).toBe(false);
    expect(isPathInside('/', '/anything', 'linux')).toBe(true);
  });

  it('compares case-insensitively on Windows and macOS only', () => {
    expect(isPathInside('C:\\Users\\me\\Proj', 'c:\\users\\ME\\proj\\src', 'win32')).toBe(true);
    expect(isPathInside('C:\\proj', 'C:\\proj-evil\\x', 'win32')).toBe(false);
    expect(isPathInside('C:\\proj', 'D:\\proj\\x', 'win32')).toBe(false);
    expect(isPathInside('/Users/me/Proj', '/users/me/proj/x', 'darwin')).toBe(true);
    expect(isPathInside('/home/me/Proj', '/home/me/proj/x', 'linux')).toBe(false);
  });

  it('tells the same path, folding case on Windows and macOS only', () => {
    expect(isSamePath('/p/proj/src', '/p/proj/src/', 'linux')).toBe(true);
    expect(isSamePath('/p/proj/src', '/p/proj/SRC', 'linux')).toBe(false);
    expect(isSamePath('/p/proj/src', '/p/proj/src/x', 'linux')).toBe(false);
    expect(isSamePath('/p/proj/src', '/p/proj/SRC', 'darwin')).toBe(true);
    expect(isSamePath('C:\\Proj\\src', 'c:/proj/SRC', 'win32')).toBe(true);
    expect(isSamePath('C:\\proj', 'D:\\proj', 'win32')).toBe(false);
  });

  it('knows Windows device names', () => {
    expect(isWindowsDeviceName('NUL')).toBe(true);
    expect(isWindowsDeviceName('con.txt')).toBe(true);
    expect(isWindowsDeviceName('com1')).toBe(true);
    expect(isWindowsDeviceName('console.txt')).toBe(false);
  });
});

describe('resolveInside', () => {
  let tmp: string;
  let root: string;
  beforeEach(async () => {
    tmp = await makeTempDir();
    root = path.join(tmp, 'proj');
    await fs.mkdir(path.join(root, 'sub'), { recursive: true });
    await fs.mkdir(path.join(tmp, 'proj-evil'));
    await fs.mkdir(path.join(tmp, 'outside'));
    await fs.writeFile(path.join(root, 'a.txt'), 'a');
  });
  afterEach(() => removeDir(tmp));

  it('resolves relative paths, `..` that stays inside, and paths not yet existing', async () => {
    expect(await resolveInside(root, 'a.txt')).toBe(path.join(root, 'a.txt'));
    expect(await resolveInside(root, 'sub/../a.txt')).toBe(path.join(root, 'a.txt'));
    expect(await resolveInside(root, path.join(root, 'sub'))).toBe(path.join(root, 'sub'));
    expect(await resolveInside(root, 'new/deeper/file.txt')).toBe(
      path.join(root, 'new', 'deeper', 'file.txt'),
    );
    expect(await resolveInside(root, '.')).toBe(root);
  });

  it('refuses `..`, sibling folders sharing a prefix and absolute paths outside', async () => {
    for (const bad of [
      '../outside/x',
      '../proj-evil/x',
      path.join(tmp, 'proj-evil'),
      path.join(tmp, 'outside'),
    ]) {
      await expect(resolveInside(root, bad)).rejects.toThrow(/outside the project folder/);
    }
    await expect(resolveInside(root, '../x')).rejects.toBeInstanceOf(ToolError);
  });

  it('refuses empty paths and NUL characters', async () => {
    await expect(resolveInside(root, '')).rejects.toThrow(/empty/);
    await expect(resolveInside(root, 'a\0b')).rejects.toThrow(/NUL/);
  });

  it('allows extra roots', async () => {
    const file = path.join(tmp, 'outside', 'r.txt');
    expect(await resolveInside(root, file, { extraRoots: [path.join(tmp, 'outside')] })).toBe(file);
    await expect(
      resolveInside(root, path.join(tmp, 'proj-evil', 'r.txt'), { extraRoots: [path.join(tmp, 'outside')] }),
    ).rejects.toThrow(/outside the project folder/);
  });

  it('mustExist refuses missing paths', async () => {
    await expect(resolveInside(root, 'missing.txt', { mustExist: true })).rejects.toThrow(/does not exist/);
    expect(await resolveInside(root, 'a.txt', { mustExist: true })).toBe(path.join(root, 'a.txt'));
  });

  posixOnly(
    'follows symlinks: inside targets are fine, outside targets (even dangling ones) are refused',
    async () => {
      await fs.symlink(path.join(root, 'a.txt'), path.join(root, 'inner-link'));
      await fs.symlink(path.join(tmp, 'outside'), path.join(root, 'out-dir'));
      await fs.symlink(path.join(tmp, 'outside', 'not-yet.txt'), path.join(root, 'dangling'));
      await fs.symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
      await fs.symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
      expect(await resolveInside(root, 'inner-link')).toBe(path.join(root, 'a.txt'));
      await expect(resolveInside(root, 'out-dir/x.txt')).rejects.toThrow(/outside the project folder/);
      await expect(resolveInside(root, 'dangling')).rejects.toThrow(/outside the project folder/);
      await expect(resolveInside(root, 'loop-a')).rejects.toThrow(/symbolic link/);
    },
  );
});

describe('assertRegularFile', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(() => removeDir(tmp));

  it('accepts files, refuses folders and missing files unless allowed', async () => {
    await fs.writeFile(path.join(tmp, 'f'), 'x');
    expect((await assertRegularFile(path.join(tmp, 'f')))?.isFile()).toBe(true);
    await expect(assertRegularFile(tmp)).rejects.toThrow(/is a folder/);
    await expect(assertRegularFile(path.join(tmp, 'nope'))).rejects.toThrow(/does not exist/);
    expect(await assertRegularFile(path.join(tmp, 'nope'), { allowMissing: true })).toBeNull();
  });

  posixOnly('refuses FIFOs and devices', async () => {
    execFileSync('mkfifo', [path.join(tmp, 'pipe')]);
    await expect(assertRegularFile(path.join(tmp, 'pipe'), { label: 'pipe' })).rejects.toThrow(
      /"pipe" is a named pipe/,
    );
    await expect(assertRegularFile('/dev/null')).rejects.toThrow(/is a device/);
  });
});

describe('helpers', () => {
  it('requireProjectRoot throws without a project', () => {
    expect(() => requireProjectRoot(makeContext({ projectRoot: null }))).toThrow(ToolError);
    expect(requireProjectRoot(makeContext({ projectRoot: '/p' }))).toBe('/p');
  });

  it('displayPath shows project-relative paths with slashes', () => {
    const root = path.resolve('/p/proj');
    expect(displayPath(root, path.join(root, 'a', 'b.txt'))).toBe('a/b.txt');
    expect(displayPath(root, root)).toBe('.');
    expect(displayPath(root, path.resolve('/elsewhere/x'))).toBe(path.resolve('/elsewhere/x'));
  });
});
