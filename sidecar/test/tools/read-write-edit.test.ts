import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/builtin/edit';
import { readTool } from '../../src/tools/builtin/read';
import { writeTool } from '../../src/tools/builtin/write';
import { ToolError } from '../../src/tools/tool';
import { makeContext, makeTempDir, removeDir, runTool, type TestContext } from './tool-context';

let tmp: string;
let root: string;
let results: string;
let ctx: TestContext;

beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp, 'proj');
  results = path.join(tmp, 'results');
  await fs.mkdir(root);
  await fs.mkdir(results);
  ctx = makeContext({ projectRoot: root, sessionResultsDir: results });
});
afterEach(() => removeDir(tmp));

const write = (rel: string, text: string | Buffer) => fs.writeFile(path.join(root, rel), text);
const readBack = (rel: string) => fs.readFile(path.join(root, rel), 'utf8');

describe('Read', () => {
  it('numbers lines like cat -n', async () => {
    await write('a.txt', 'alpha\nbeta\r\ngamma');
    expect((await runTool(readTool, { path: 'a.txt' }, ctx)).content).toBe(
      '     1\talpha\n     2\tbeta\n     3\tgamma',
    );
  });

  it('honours offset and limit and says how to read on', async () => {
    await write('n.txt', `${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    const result = await runTool(readTool, { path: 'n.txt', offset: 3, limit: 2 }, ctx);
    expect(result.content).toBe(
      '     3\tline 3\n     4\tline 4\n\n[Showing lines 3-4 of 10; continue with offset=5.]',
    );
    const tail = await runTool(readTool, { path: 'n.txt', offset: 9 }, ctx);
    expect(tail.content).toBe('     9\tline 9\n    10\tline 10');
  });

  it('caps the default read at 2000 lines', async () => {
    await write('big.txt', Array.from({ length: 2500 }, (_, i) => String(i + 1)).join('\n'));
    const result = await runTool(readTool, { path: 'big.txt' }, ctx);
    expect(result.content.split('\n')[1999]).toBe('  2000\t2000');
    expect(result.content).toContain('[Showing lines 1-2000 of 2500; continue with offset=2001.]');
  });

  it('cuts very long lines', async () => {
    await write('long.txt', 'x'.repeat(5000));
    const result = await runTool(readTool, { path: 'long.txt' }, ctx);
    expect(result.content).toContain('[line cut]');
    expect(result.content.length).toBeLessThan(2100);
  });

  it('handles empty files, offsets past the end, folders, missing and binary files', async () => {
    await write('empty.txt', '');
    await write('one.txt', 'only\n');
    await write('bin.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await fs.mkdir(path.join(root, 'dir'));
    expect((await runTool(readTool, { path: 'empty.txt' }, ctx)).content).toMatch(/is empty/);
    await expect(runTool(readTool, { path: 'one.txt', offset: 5 }, ctx)).rejects.toThrow(
      /past the end.*1 lines/,
    );
    await expect(runTool(readTool, { path: 'bin.dat' }, ctx)).rejects.toThrow(/binary/);
    await expect(runTool(readTool, { path: 'dir' }, ctx)).rejects.toThrow(/is a folder/);
    await expect(runTool(readTool, { path: 'missing.txt' }, ctx)).rejects.toThrow(/does not exist/);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO instead of blocking on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await expect(runTool(readTool, { path: 'pipe' }, ctx)).rejects.toThrow(/named pipe/);
  });

  it("reads files in the session's results folder, but nothing else outside the project", async () => {
    await fs.writeFile(path.join(results, 'call-1.txt'), 'saved output\n');
    await fs.writeFile(path.join(tmp, 'other.txt'), 'private\n');
    const result = await runTool(readTool, { path: path.join(results, 'call-1.txt') }, ctx);
    expect(result.content).toBe('     1\tsaved output');
    await expect(runTool(readTool, { path: path.join(tmp, 'other.txt') }, ctx)).rejects.toThrow(
      /outside the project folder/,
    );
  });

  it('needs a project', async () => {
    await expect(runTool(readTool, { path: 'a' }, makeContext({ projectRoot: null }))).rejects.toThrow(
      ToolError,
    );
  });
});

describe('Write', () => {
  it('creates parent folders and reports bytes and lines', async () => {
    const result = await runTool(writeTool, { path: 'deep/er/f.txt', content: 'héllo\nworld\n' }, ctx);
    expect(result.content).toBe('Created deep/er/f.txt: 13 bytes, 2 lines.');
    expect(await readBack('deep/er/f.txt')).toBe('héllo\nworld\n');
  });

  it('overwrites an existing file', async () => {
    await write('f.txt', 'old');
    const result = await runTool(writeTool, { path: 'f.txt', content: 'new' }, ctx);
    expect(result.content).toBe('Overwrote f.txt: 3 bytes, 1 line.');
    expect(await readBack('f.txt')).toBe('new');
  });

  it('refuses folders and FIFOs', async () => {
    await fs.mkdir(path.join(root, 'dir'));
    await expect(runTool(writeTool, { path: 'dir', content: 'x' }, ctx)).rejects.toThrow(/is a folder/);
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(root, 'pipe')]);
      await expect(runTool(writeTool, { path: 'pipe', content: 'x' }, ctx)).rejects.toThrow(/named pipe/);
    }
  });
});

describe('Edit', () => {
  it('replaces a string that occurs exactly once', async () => {
    await write('e.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await runTool(
      editTool,
      { path: 'e.ts', old_string: 'b = 2', new_string: 'b = $& 3' },
      ctx,
    );
    expect(result.content).toBe('Replaced 1 occurrence in e.ts (line 2).');
    expect(await readBack('e.ts')).toBe('const a = 1;\nconst b = $& 3;\n');
  });

  it('refuses zero matches and several matches without replace_all', async () => {
    await write('e.ts', 'x = 1;\nx = 1;\n');
    await expect(
      runTool(editTool, { path: 'e.ts', old_string: 'y = 1', new_string: 'z' }, ctx),
    ).rejects.toThrow(/not found/);
    await expect(
      runTool(editTool, { path: 'e.ts', old_string: 'x = 1', new_string: 'x = 2' }, ctx),
    ).rejects.toThrow(/matches 2 times.*context.*replace_all/s);
    expect(await readBack('e.ts')).toBe('x = 1;\nx = 1;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    await write('e.ts', 'x = 1;\nx = 1;\n');
    const result = await runTool(
      editTool,
      { path: 'e.ts', old_string: 'x = 1', new_string: 'x = 2', replace_all: true },
      ctx,
    );
    expect(result.content).toBe('Replaced 2 occurrences in e.ts (first at line 1).');
    expect(await readBack('e.ts')).toBe('x = 2;\nx = 2;\n');
  });

  it('refuses identical and empty strings, missing files and binary files', async () => {
    await write('e.ts', 'abc');
    await write('bin', Buffer.from([0x61, 0x00, 0x62]));
    await expect(
      runTool(editTool, { path: 'e.ts', old_string: 'abc', new_string: 'abc' }, ctx),
    ).rejects.toThrow(/the same/);
    await expect(runTool(editTool, { path: 'e.ts', old_string: '', new_string: 'x' }, ctx)).rejects.toThrow(
      /empty/,
    );
    await expect(
      runTool(editTool, { path: 'nope.ts', old_string: 'a', new_string: 'b' }, ctx),
    ).rejects.toThrow(/does not exist/);
    await expect(runTool(editTool, { path: 'bin', old_string: 'a', new_string: 'b' }, ctx)).rejects.toThrow(
      /binary/,
    );
  });

  it('matches "\\n" against Windows line endings', async () => {
    await write('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    await runTool(editTool, { path: 'crlf.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' }, ctx);
    expect(await readBack('crlf.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });
});
