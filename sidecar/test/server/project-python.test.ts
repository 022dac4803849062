import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Project, ProjectPython } from '../../src/protocol';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { IPYTHON_PYTHON, STDLIB_KERNEL_ENV, waitForExecutionEnd } from '../support/kernel-harness';

// A project's interpreter, set and read through the API, and used by the kernels of its sessions. The
// "other" interpreter is a symlink to Debian's python3 in a folder of its own: Python reports the path it
// was started by as sys.executable, so a kernel's sys.executable names which candidate it ran.

type ErrorBody = { error: { code: string; message: string } };

/** No CAIRN_KERNEL_PYTHON from the environment the tests run in: the project's choice must decide. */
const ENV = { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_PYTHON: undefined };
const REAL_PYTHON = fs.realpathSync(IPYTHON_PYTHON);

/** `<dir>/bin/python3` pointing at the real interpreter. */
function linkedPython(dir: string): string {
  const file = path.join(dir, 'bin', 'python3');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.symlinkSync(REAL_PYTHON, file);
  return file;
}

/** Runs `sys.executable` in a new session of the project and returns what the kernel printed as its value. */
async function kernelExecutable(h: Harness, projectId: string): Promise<string> {
  const session = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: projectId });
  const res = await h.api('POST', `/api/sessions/${session.body.id}/kernels/default/execute`, {
    code: 'import sys\nsys.executable',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const end = await waitForExecutionEnd(h, session.body.id);
  expect(end.type).toBe('kernel.result');
  const text = end.type === 'kernel.result' ? end.return_value?.text : null;
  // The repr of a str: quoted.
  return JSON.parse(String(text).replace(/^'(.*)'$/, '"$1"')) as string;
}

describe('a project’s Python interpreter', () => {
  let h: Harness;
  let projectId: string;
  let elsewhere: string;
  let other: string;

  beforeAll(async () => {
    h = await startHarness({ env: ENV });
    ({ projectId } = await h.newSession());
    elsewhere = tempDir('python');
    other = linkedPython(path.join(elsewhere, 'other'));
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });
  afterEach(async () => {
    fs.rmSync(path.join(h.projectDir, '.venv'), { recursive: true, force: true });
    await h.api('PATCH', `/api/projects/${projectId}`, { python_path: null });
  });

  const patch = (body: unknown, id = projectId) =>
    h.api<Project & ErrorBody>('PATCH', `/api/projects/${id}`, body);
  const python = (id = projectId) => h.api<ProjectPython & ErrorBody>('GET', `/api/projects/${id}/python`);

  it('is python3 on PATH by default, with its version', async () => {
    const project = (await h.api<{ projects: Project[] }>('GET', '/api/projects')).body.projects[0];
    expect(project?.python_path).toBeNull();
    const res = await python();
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('path');
    expect(res.body.version).toMatch(/^3\.\d+\.\d+$/);
    expect(path.isAbsolute(res.body.command)).toBe(true);
    expect(res.body.command).not.toBe(other);
    expect(await kernelExecutable(h, projectId)).toBe(res.body.command);
  });

  it('is set to an interpreter that runs, reported as source project, and the kernels use it', async () => {
    const res = await patch({ python_path: other });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: projectId, python_path: other });
    expect((await h.api<Project>('GET', '/api/projects')).body).toMatchObject({
      projects: [{ id: projectId, python_path: other }],
    });
    const described = await python();
    expect(described.body).toEqual({
      command: other,
      args: [],
      source: 'project',
      version: expect.stringMatching(/^3\.\d+\.\d+$/),
    });
    expect(await kernelExecutable(h, projectId)).toBe(other);

    // Cleared: back to the default, for kernels started afterwards.
    const cleared = await patch({ python_path: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.python_path).toBeNull();
    expect((await python()).body.source).toBe('path');
    expect(await kernelExecutable(h, projectId)).not.toBe(other);
  });

  it('applies to a session opened before it was set, whose kernels had not started', async () => {
    const session = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: projectId });
    const sessionId = session.body.id;
    // Opens the session's kernels as a turn does (no kernel starts yet).
    expect(h.server.core.services.kernels().forTurn(sessionId, 'turn_test')).not.toBeNull();
    expect(h.server.core.services.kernels().list(sessionId)).toEqual([]);
    expect((await patch({ python_path: other })).status).toBe(200);
    const res = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: 'import sys\nsys.executable',
    });
    expect(res.status).toBe(202);
    const end = await waitForExecutionEnd(h, sessionId);
    expect(end).toMatchObject({ type: 'kernel.result', return_value: { text: `'${other}'` } });
  });

  it('applies to the next kernel a running session starts (a restart), not to the kernel already running', async () => {
    const session = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: projectId });
    const sessionId = session.body.id;
    const run = async (n: number) => {
      await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
        code: 'import sys\nsys.executable',
      });
      const end = await waitForExecutionEnd(h, sessionId, n);
      return end.type === 'kernel.result' ? end.return_value?.text : null;
    };
    expect(await run(1)).not.toBe(`'${other}'`);
    expect((await patch({ python_path: other })).status).toBe(200);
    expect(await run(2)).not.toBe(`'${other}'`); // the running kernel keeps its interpreter
    expect((await h.api('POST', `/api/sessions/${sessionId}/kernels/default/restart`)).status).toBe(200);
    expect(await run(3)).toBe(`'${other}'`);
  });

  it('refuses what is not a usable Python with a 400 saying why, and keeps the old setting', async () => {
    expect((await patch({ python_path: other })).status).toBe(200);
    const script = path.join(elsewhere, 'not-python.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho hello\n', { mode: 0o755 });
    const text = path.join(elsewhere, 'notes.txt');
    fs.writeFileSync(text, 'not a program\n');
    const cases: [unknown, RegExp][] = [
      [{ python_path: 'bin/python3' }, /must be absolute.*"bin\/python3"/],
      [
        { python_path: path.join(elsewhere, 'missing', 'python3') },
        /does not exist on the machine running Cairn/,
      ],
      [{ python_path: elsewhere }, /is not a file/],
      [{ python_path: script }, /printed no Python version: hello/],
      [{ python_path: text }, /does not run/],
      [{ python_path: '' }, /send null to use the default/],
      [{}, /give at least one of python_path, sandbox, sandbox_network/],
      [{ python_path: other, name: 'renamed' }, /name/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
      expect(res.body.error.message).toMatch(message);
    }
    const messages = await Promise.all([patch({ python_path: script }), patch({ python_path: text })]);
    for (const res of messages) expect(res.body.error.message).toMatch(/Python 3\.9 or newer/);
    expect((await python()).body).toMatchObject({ command: other, source: 'project' });
  });

  it('is 404 for an unknown project', async () => {
    const set = await patch({ python_path: null }, 'prj_missing');
    expect(set.status).toBe(404);
    expect(set.body.error.code).toBe('not_found');
    const read = await python('prj_missing');
    expect(read.status).toBe(404);
  });

  it('finds the project’s .venv when none is set, and a set path wins over it', async () => {
    const venvPython = linkedPython(path.join(h.projectDir, '.venv'));
    const res = await python();
    expect(res.body).toMatchObject({ command: venvPython, source: 'venv', args: [] });
    expect(await kernelExecutable(h, projectId)).toBe(venvPython);

    expect((await patch({ python_path: other })).status).toBe(200);
    expect((await python()).body).toMatchObject({ command: other, source: 'project' });
  });

  it('answers 503 python_not_found when the set interpreter has gone, naming it', async () => {
    const gone = linkedPython(path.join(elsewhere, 'gone'));
    expect((await patch({ python_path: gone })).status).toBe(200);
    fs.rmSync(path.join(elsewhere, 'gone'), { recursive: true });
    const res = await python();
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('python_not_found');
    expect(res.body.error.message).toContain(gone);
    expect(res.body.error.message).toMatch(/Fix or clear the interpreter path set for this project/);
  });

  it('is kept across a restart of the sidecar', async () => {
    expect((await patch({ python_path: other })).status).toBe(200);
    await h.restart();
    expect((await h.api<{ projects: Project[] }>('GET', '/api/projects')).body.projects[0]?.python_path).toBe(
      other,
    );
    expect((await python()).body.source).toBe('project');
  });
});

describe('CAIRN_KERNEL_PYTHON', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('wins over the project’s setting, reported as source environment', async () => {
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_PYTHON: IPYTHON_PYTHON } });
    const { projectId } = await h.newSession();
    const dir = tempDir('python');
    try {
      const other = linkedPython(dir);
      expect((await h.api('PATCH', `/api/projects/${projectId}`, { python_path: other })).status).toBe(200);
      const res = await h.api<ProjectPython>('GET', `/api/projects/${projectId}/python`);
      expect(res.body).toMatchObject({ source: 'environment', command: IPYTHON_PYTHON });
      expect(await kernelExecutable(h, projectId)).toBe(IPYTHON_PYTHON);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a missing CAIRN_KERNEL_PYTHON is blamed on the variable, not on the project, for reads and kernels', async () => {
    const gone = '/nonexistent-cairn-test/bin/python3';
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_PYTHON: gone } });
    const { projectId, sessionId } = await h.newSession();
    const read = await h.api<ErrorBody>('GET', `/api/projects/${projectId}/python`);
    const run = await h.api<ErrorBody>('POST', `/api/sessions/${sessionId}/kernels/main/execute`, {
      code: '1',
    });
    for (const res of [read, run]) {
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('python_not_found');
      expect(res.body.error.message).toContain(gone);
      expect(res.body.error.message).toMatch(/comes from CAIRN_KERNEL_PYTHON.*fix or unset it/);
      expect(res.body.error.message).not.toMatch(/set for this project/);
    }
  });

  it('conversation-only mode has no project interpreter to set or read', async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: 'true' } });
    for (const [method, body] of [
      ['PATCH', { python_path: null }],
      ['GET', undefined],
    ] as const) {
      const route = method === 'PATCH' ? '/api/projects/prj_x' : '/api/projects/prj_x/python';
      const res = await h.api<ErrorBody>(method, route, body);
      expect(res.status, method).toBe(403);
      expect(res.body.error.code).toBe('conversation_only');
    }
  });
});
