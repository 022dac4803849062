import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

// Where the sandbox cannot run (here: CAIRN_SANDBOX_BWRAP names a bubblewrap that does not exist), turning it
// on is refused with what to install, and turning it off (or any other setting) still works.

type ErrorBody = { error: { code: string; message: string } };

describe('PATCH /api/projects/{id} where the sandbox cannot run', () => {
  let h: Harness;
  let projectId: string;

  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_SANDBOX_BWRAP: path.join('/nonexistent', 'bwrap') } });
    ({ projectId } = await h.newSession());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses "on" with sandbox_unavailable (409) saying what to install, and changes nothing', async () => {
    const refused = await h.api<ErrorBody>('PATCH', `/api/projects/${projectId}`, {
      sandbox: 'on',
      sandbox_network: 'off',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('sandbox_unavailable');
    expect(refused.body.error.message).toMatch(/Install bubblewrap \(Debian\/Ubuntu: apt install bubblewrap/);
    const listed = await h.api<{ projects: Project[] }>('GET', '/api/projects');
    expect(listed.body.projects[0]).toMatchObject({ sandbox: 'off', sandbox_network: 'on' });

    const off = await h.api<Project>('PATCH', `/api/projects/${projectId}`, { sandbox: 'off' });
    expect(off.status).toBe(200);
    const network = await h.api<Project>('PATCH', `/api/projects/${projectId}`, { sandbox_network: 'off' });
    expect(network.body).toMatchObject({ sandbox: 'off', sandbox_network: 'off' });
  });
});
