import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Project } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { STDLIB_KERNEL_ENV, waitForExecutionEnd } from '../support/kernel-harness';
import { describeSandbox, requireBubblewrap } from '../support/sandbox-support';

// A project's sandbox through the API: PATCH /api/projects/{id} with its settings, and the user's kernel cells
// of a sandboxed project confined (the data directory is under /tmp here, so the cell looks for the session's
// own files by path instead: hidden, but for the session's tool-call results).

type ErrorBody = { error: { code: string; message: string } };

describeSandbox('PATCH /api/projects/{id}: the sandbox', () => {
  beforeAll(requireBubblewrap);
  let h: Harness;
  let projectId: string;
  let sessionId: string;

  beforeAll(async () => {
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_WARM: '0' } });
    ({ projectId, sessionId } = await h.newSession());
  });
  afterAll(async () => {
    await h?.close();
  });

  const patch = (body: unknown) => h.api<Project & ErrorBody>('PATCH', `/api/projects/${projectId}`, body);

  it('sets and returns both settings, each alone or together; a new project has the defaults', async () => {
    const listed = await h.api<{ projects: Project[] }>('GET', '/api/projects');
    expect(listed.body.projects[0]).toMatchObject({ sandbox: 'off', sandbox_network: 'on' });
    expect((await patch({ sandbox: 'on' })).body).toMatchObject({ sandbox: 'on', sandbox_network: 'on' });
    expect((await patch({ sandbox_network: 'off' })).body).toMatchObject({
      sandbox: 'on',
      sandbox_network: 'off',
    });
    expect((await patch({ sandbox: 'off', sandbox_network: 'on' })).body).toMatchObject({
      sandbox: 'off',
      sandbox_network: 'on',
    });
    // python_path alone still works, and answers with the sandbox fields too.
    const python = await patch({ python_path: null });
    expect(python.status).toBe(200);
    expect(python.body).toMatchObject({ python_path: null, sandbox: 'off', sandbox_network: 'on' });
  });

  it('refuses an empty body, an unknown field or value, and an unknown project', async () => {
    for (const body of [
      {},
      { sandbox: 'on', shell: 'zsh' },
      { sandbox: 'maybe' },
      { sandbox_network: true },
    ]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    const missing = await h.api<ErrorBody>('PATCH', '/api/projects/prj_nope', { sandbox: 'on' });
    expect(missing.status).toBe(404);
  });

  it('confines the kernels of its sessions, restarting a running one when the setting changes', async () => {
    const run = async (code: string, n: number) => {
      const res = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, { code });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const end = await waitForExecutionEnd(h, sessionId, n);
      expect(end.type).toBe('kernel.result');
      return end.type === 'kernel.result' ? (end.return_value?.text ?? '') : '';
    };
    const db = path.join(h.dataDir, 'cairn.db');
    const probe = `import os\n[os.path.exists(${JSON.stringify(db)}), len([p for p in os.listdir('/proc') if p.isdigit()])]`;
    const before = await run(probe, 1);
    expect(before).toMatch(/^\[True, \d+\]$/);
    expect(Number(/(\d+)\]$/.exec(before)?.[1])).toBeGreaterThan(2);

    expect((await patch({ sandbox: 'on', sandbox_network: 'off' })).status).toBe(200);
    // The kernel that ran unconfined was restarted under the new setting.
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.started' && e.reason === 'restart');
    expect(await run(probe, 2)).toBe('[False, 2]');
    expect(fs.existsSync(db)).toBe(true);

    expect((await patch({ sandbox: 'off' })).status).toBe(200);
  });
});
