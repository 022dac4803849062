import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeOwnerOnlyFile } from '../../src/config/owner-only-files';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-owner-write-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('writing a file of Cairn’s', () => {
  it('replaces a link planted where the file goes instead of writing through it', () => {
    // A sandboxed process may write in a call's results folder: it links result.txt to a file of the user's.
    const results = tempDir();
    const outside = tempDir();
    const target = path.join(outside, 'bashrc');
    fs.writeFileSync(target, '# mine\n');
    const file = path.join(results, 'result.txt');
    fs.symlinkSync(target, file);
    writeOwnerOnlyFile(file, 'echo pwned\n');
    expect(fs.readFileSync(target, 'utf8')).toBe('# mine\n');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('echo pwned\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(results)).toEqual(['result.txt']);
  });

  it('replaces the content of an existing file and leaves nothing beside it when it cannot', () => {
    const dir = tempDir();
    const file = path.join(dir, 'status.json');
    writeOwnerOnlyFile(file, 'one');
    writeOwnerOnlyFile(file, 'two');
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    fs.mkdirSync(path.join(dir, 'taken'));
    expect(() => writeOwnerOnlyFile(path.join(dir, 'taken'), 'x')).toThrow();
    expect(fs.readdirSync(dir).sort()).toEqual(['status.json', 'taken']);
  });
});
