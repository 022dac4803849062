import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { processGone, readPidFile, runCli, setUpCliTest, tearDownCliTest } from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('cli-bg'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

describe('cairn run and background calls', { timeout: 120_000 }, () => {
  it('shows a background call, and cancels it as the run exits, saying so', async () => {
    model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'sleep 300 & echo $! > sleep.pid; wait', is_wait: false },
          },
        ],
      },
      { content: [{ type: 'text', text: 'It runs on.' }] },
    );
    const result = await runCli(
      ['run', '--workspace', workspace, '--data-dir', dataDir, '--prompt', 'start a server'],
      { env: testEnv(model) },
    );
    expect(result.code).toBe(0);
    const pid = readPidFile(path.join(workspace, 'sleep.pid'));
    strays.push(pid);
    expect(result.stderr).toMatch(/▸ Bash .* — in the background as tc_[\w-]+/);
    const callId = /in the background as (tc_[\w-]+)/.exec(result.stderr)![1]!;
    expect(result.stderr).toContain(
      `cancelling 1 background call still running as cairn run exits: ${callId} (Bash)`,
    );
    expect(pid !== null && processGone(pid)).toBe(true);
    const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT status, background FROM tool_calls WHERE id = ?').get(callId);
      expect(row).toEqual({ status: 'cancelled', background: 1 });
    } finally {
      db.close();
    }
  });
});
