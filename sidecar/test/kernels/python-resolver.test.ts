import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearPythonChecks, PythonNotFoundError, resolvePython } from '../../src/kernels/python-resolver';
import { makeTempDir, removeDir } from '../tools/tool-context';
import { kernelEnv } from './kernel-support';

const OLD_PYTHON = '/root/.pyenv/versions/3.6.15/bin/python3';

describe('resolvePython', () => {
  const dirs: string[] = [];
  const tempProject = async () => {
    const dir = await makeTempDir('cairn-python-');
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map(removeDir));
  });

  it.each(['.venv', 'venv'])("uses the project's %s when it has one", async (venvDir) => {
    const project = await tempProject();
    execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(project, venvDir)], {
      env: kernelEnv(),
    });

    const python = await resolvePython({ projectRoot: project, env: kernelEnv() });

    expect(python.source).toBe('venv');
    expect(python.command.startsWith(path.join(project, venvDir, 'bin'))).toBe(true);
    // It is that environment's interpreter: its sys.prefix is the venv folder.
    const prefix = execFileSync(python.command, [...python.args, '-c', 'import sys; print(sys.prefix)'], {
      encoding: 'utf8',
    }).trim();
    expect(await fs.realpath(prefix)).toBe(path.join(project, venvDir));
  });

  it('prefers a configured interpreter to the venv', async () => {
    const project = await tempProject();
    execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(project, '.venv')], {
      env: kernelEnv(),
    });

    const python = await resolvePython({
      projectRoot: project,
      configuredPath: '/usr/bin/python3',
      env: kernelEnv(),
    });

    expect(python.source).toBe('configured');
    expect(python.command).toBe('/usr/bin/python3');
    expect(python.version).toMatch(/^3\.\d+\.\d+$/);
  });

  it('falls back to python3 on PATH, resolved to the real executable', async () => {
    const project = await tempProject();
    const python = await resolvePython({ projectRoot: project, env: kernelEnv() });

    expect(python.source).toBe('path');
    expect(path.isAbsolute(python.command)).toBe(true);
    const expected = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
      cwd: project,
    }).trim();
    expect(python.command).toBe(expected);
    const [major, minor] = python.version.split('.').map(Number);
    expect(major! * 100 + minor!).toBeGreaterThanOrEqual(309);
  });

  /**
   * A `python3` on PATH that counts its runs in `runs` and works only while `broken` does not exist: a
   * wrapper around the real interpreter (it reports that one as sys.executable).
   */
  const countingPython = async () => {
    const bin = await tempProject();
    const real = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).trim();
    const script = path.join(bin, 'python3');
    const runs = path.join(bin, 'runs');
    const broken = path.join(bin, 'broken');
    await fs.writeFile(
      script,
      `#!/bin/sh\necho run >> '${runs}'\n[ -e '${broken}' ] && exit 3\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    const count = async () =>
      existsSync(runs) ? (await fs.readFile(runs, 'utf8')).split('\n').length - 1 : 0;
    return { script, broken, count, env: { ...kernelEnv(), PATH: `${bin}:${kernelEnv().PATH ?? ''}` } };
  };

  it('checks an interpreter once, and again only when its program file changes', async () => {
    clearPythonChecks();
    const project = await tempProject();
    const python = await countingPython();

    const first = await resolvePython({ projectRoot: project, env: python.env });
    const again = await resolvePython({ projectRoot: project, env: python.env });
    expect(await python.count()).toBe(1);
    expect(again).toEqual(first);

    // Another folder may pick another interpreter (pyenv): checked on its own.
    await resolvePython({ projectRoot: await tempProject(), env: python.env });
    expect(await python.count()).toBe(2);

    const later = new Date(Date.now() + 5_000);
    await fs.utimes(python.script, later, later);
    await resolvePython({ projectRoot: project, env: python.env });
    expect(await python.count()).toBe(3);
  });

  it('does not keep a failed check: a Python that works later is found', async () => {
    clearPythonChecks();
    const project = await tempProject();
    const python = await countingPython();
    await fs.writeFile(python.broken, '');
    const configured = { projectRoot: project, configuredPath: python.script, env: python.env };

    await expect(resolvePython(configured)).rejects.toBeInstanceOf(PythonNotFoundError);
    await fs.rm(python.broken);
    const found = await resolvePython(configured);
    expect(found.source).toBe('configured');
    expect(await python.count()).toBe(2);
  });

  it('says python_not_found, what was tried and what to install when no Python is on PATH', async () => {
    const project = await tempProject();
    const emptyBin = await tempProject();
    const error = await resolvePython({
      projectRoot: project,
      env: { ...kernelEnv(), PATH: emptyBin },
    }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PythonNotFoundError);
    const err = error as PythonNotFoundError;
    expect(err.code).toBe('python_not_found');
    expect(err.toJSON().code).toBe('python_not_found');
    expect(err.message).toContain('`python3` on PATH (not found)');
    expect(err.message).toContain('apt-get install python3');
    expect(err.message).toContain('python.org');
    expect(err.message).toContain('3.9');
  });

  it('does not fall back when the configured interpreter is missing, and names it', async () => {
    const project = await tempProject();
    const missing = path.join(project, 'no-such-python');
    const error = await resolvePython({
      projectRoot: project,
      configuredPath: missing,
      env: kernelEnv(),
    }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PythonNotFoundError);
    expect((error as PythonNotFoundError).code).toBe('python_not_found');
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain('Fix or clear the interpreter path');
  });

  it('names the Windows installers on Windows', async () => {
    const project = await tempProject();
    const emptyBin = await tempProject();
    const error = await resolvePython({
      projectRoot: project,
      env: { ...kernelEnv(), PATH: emptyBin },
      platform: 'win32',
    }).catch((err: unknown) => err);

    expect((error as Error).message).toContain('`py -3` (not found)');
    expect((error as Error).message).toContain('Microsoft Store');
  });

  it.skipIf(!existsSync(OLD_PYTHON))('rejects a Python older than 3.9', async () => {
    const project = await tempProject();
    const error = await resolvePython({
      projectRoot: project,
      configuredPath: OLD_PYTHON,
      env: kernelEnv(),
    }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PythonNotFoundError);
    expect((error as Error).message).toMatch(/Python 3\.6\.\d+ is too old; 3\.9 or newer is needed/);
  });
});
