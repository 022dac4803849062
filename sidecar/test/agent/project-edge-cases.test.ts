import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { systemText } from '../support/model-server';

describe('sessions whose project is gone or not allowed', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a project folder deleted since fails the turn with what to do, not an internal error', async () => {
    h = await startHarness();
    const folder = tempDir('vanishing');
    const project = await h.api<{ id: string }>('POST', '/api/projects', { path: folder });
    const session = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: project.body.id });
    fs.rmSync(folder, { recursive: true, force: true });
    const done = await h.waitForTurnEnd((await h.startTurn(session.body.id, 'hi')).id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('bad_request');
    expect(done.error?.message).toContain(`${folder} no longer exists`);
    expect(h.model.requests).toHaveLength(0);
  });

  it('a conversation-only server treats an older project session as a plain conversation', async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: 'true' } });
    fs.writeFileSync(`${h.projectDir}/AGENTS.md`, 'Secret project rules.');
    // Made before the server became conversation-only: straight through the store.
    const { store } = h.server.core;
    const project = store.projects.upsertByPath(h.projectDir);
    const session = store.sessions.create({ projectId: project.id });
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    const done = await h.waitForTurnEnd((await h.startTurn(session.id, 'hi')).id);
    expect(done.status).toBe('completed');
    const system = systemText(h.model.requests[0]!.body);
    expect(system).not.toContain(h.projectDir);
    expect(system).not.toContain('Secret project rules.');
    expect(h.model.requests[0]!.body.tools?.map((t) => t.name)).toEqual([
      'AskUserQuestion',
      'Context',
      'Fork',
      'ToolControl',
    ]);
  });
});
