import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/protocol';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import { useKeyringInProcess } from '../support/keyring-in-process';

const KEY = 'sk-ant-keychain-secret-9f8e7d6c5b4a';

describe('a model key in the OS keychain (a real Secret Service)', () => {
  let h: Harness;
  useKeyringInProcess();
  afterAll(async () => {
    await h?.close();
  });

  it('is write-only through the API, used for requests, and never stored or shown anywhere else', async () => {
    // No key in the environment: the keychain is the only source.
    h = await startHarness({ env: { CAIRN_ANTHROPIC_API_KEY: undefined, CAIRN_MODEL: undefined } });
    const created = await h.api<ModelConfig>('POST', '/api/models', {
      name: 'main',
      model: 'cairn-test-model',
      base_url: h.model.url,
    });
    expect(created.body.has_key).toBe(false);
    const put = await h.api('PUT', `/api/models/${created.body.id}/key`, { key: KEY });
    expect(put.status).toBe(204);
    const listed = await h.api<{ models: ModelConfig[] }>('GET', '/api/models');
    expect(listed.body.models[0]!.has_key).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(KEY);

    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'hello' }] });
    const turn = await h.startTurn(sessionId, 'hi');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(h.model.requests[0]!.apiKey).toBe(KEY);

    const events = await h.api('GET', `/api/sessions/${sessionId}/events?after=0`);
    expect(JSON.stringify(events.body)).not.toContain(KEY);
    await h.server.stop(); // flushes the database and logs; the folder stays until h.close()
    for (const file of allFiles(h.dataDir)) {
      expect(fs.readFileSync(file).includes(KEY), `${file} holds the key`).toBe(false);
    }
  });
});
