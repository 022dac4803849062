import { describe, expect, it } from 'vitest';
import { findOnPath, resolveBash } from '../../src/tools/bash-resolver';
import { ToolError } from '../../src/tools/tool';

const existing = (...files: string[]) => {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return (file: string) => set.has(file.toLowerCase());
};

describe('resolveBash on Windows', () => {
  const platform = 'win32' as const;

  it("finds Git for Windows' bash under Program Files", () => {
    const env = { ProgramFiles: 'C:\\Program Files', PATH: '' };
    expect(resolveBash({ platform, env, exists: existing('C:\\Program Files\\Git\\bin\\bash.exe') })).toBe(
      'C:\\Program Files\\Git\\bin\\bash.exe',
    );
  });

  it('finds it under Program Files (x86) and the per-user install', () => {
    const env = {
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    };
    expect(
      resolveBash({ platform, env, exists: existing('C:\\Program Files (x86)\\Git\\bin\\bash.exe') }),
    ).toBe('C:\\Program Files (x86)\\Git\\bin\\bash.exe');
    const user = 'C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe';
    expect(resolveBash({ platform, env, exists: existing(user) })).toBe(user);
  });

  it('derives it from git.exe on PATH, ignoring the WSL launcher', () => {
    const env = { Path: 'C:\\Windows\\System32;D:\\Tools\\Git\\cmd', PATHEXT: '.COM;.EXE' };
    const exists = existing(
      'C:\\Windows\\System32\\bash.exe',
      'D:\\Tools\\Git\\cmd\\git.exe',
      'D:\\Tools\\Git\\bin\\bash.exe',
    );
    expect(resolveBash({ platform, env, exists })).toBe('D:\\Tools\\Git\\bin\\bash.exe');
  });

  it('derives it from mingw64\\bin\\git.exe', () => {
    const env = { PATH: 'E:\\Git\\mingw64\\bin' };
    const exists = existing('E:\\Git\\mingw64\\bin\\git.exe', 'E:\\Git\\bin\\bash.exe');
    expect(resolveBash({ platform, env, exists })).toBe('E:\\Git\\bin\\bash.exe');
  });

  it('throws a ToolError pointing to Exec when there is no Git bash', () => {
    const env = { ProgramFiles: 'C:\\Program Files', PATH: 'C:\\Windows\\System32' };
    const run = () => resolveBash({ platform, env, exists: existing('C:\\Windows\\System32\\bash.exe') });
    expect(run).toThrow(ToolError);
    expect(run).toThrow(/Exec tool/);
  });
});

describe('resolveBash on POSIX', () => {
  it('prefers /bin/bash', () => {
    expect(
      resolveBash({ platform: 'linux', env: { PATH: '/usr/local/bin' }, exists: existing('/bin/bash') }),
    ).toBe('/bin/bash');
  });

  it('falls back to bash on PATH, else throws', () => {
    const env = { PATH: 'relative/bin:/opt/homebrew/bin:/usr/bin' };
    expect(resolveBash({ platform: 'darwin', env, exists: existing('/opt/homebrew/bin/bash') })).toBe(
      '/opt/homebrew/bin/bash',
    );
    expect(() => resolveBash({ platform: 'linux', env, exists: existing() })).toThrow(/Exec tool/);
  });

  it('finds the real bash here', () => {
    if (process.platform !== 'win32') expect(resolveBash()).toMatch(/bash$/);
  });
});

describe('findOnPath', () => {
  it('skips relative PATH entries and applies PATHEXT on Windows', () => {
    expect(
      findOnPath('rg', { platform: 'linux', env: { PATH: 'bin:/usr/bin' }, exists: existing('bin/rg') }),
    ).toBe(null);
    expect(
      findOnPath('rg', { platform: 'win32', env: { Path: '"C:\\rg"' }, exists: existing('C:\\rg\\rg.exe') }),
    ).toBe('C:\\rg\\rg.exe');
  });
});
