import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { jsonLines, runCli, setUpCliTest, tearDownCliTest } from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('cli-mode'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, []));

const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];

/** The sessions the CLI left behind (read after it exited and released the store). */
function sessions(): { id: string; mode: string }[] {
  const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT id, mode FROM sessions ORDER BY created_at').all() as {
      id: string;
      mode: string;
    }[];
  } finally {
    db.close();
  }
}

describe('cairn run --mode', { timeout: 120_000 }, () => {
  it('creates the session in code mode, and switches a given session back to tools', async () => {
    // A reply that ends a turn in either loop: the code loop runs final_answer, the tools loop shows text.
    model.enqueue({ content: [{ type: 'text', text: 'Done.\n<code>\nfinal_answer("done")\n' }] });
    await runCli(run('--prompt', 'say done', '--json', '--mode', 'code'), { env: testEnv(model) });
    const [created, ...others] = sessions();
    expect(others).toEqual([]);
    expect(created?.mode).toBe('code');

    model.enqueue({ content: [{ type: 'text', text: 'Back to tools.' }] });
    const again = await runCli(
      run('--prompt', 'again', '--json', '--session', created?.id ?? '', '--mode', 'tools'),
      { env: testEnv(model) },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).at(-1)?.type).toBe('turn.completed');
    expect(sessions()).toEqual([{ id: created?.id, mode: 'tools' }]);
  });

  it('leaves the mode as tools without the flag', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'Hi.' }] });
    const result = await runCli(run('--prompt', 'hi', '--json'), { env: testEnv(model) });
    expect(result.code, result.stderr).toBe(0);
    expect(sessions().map((s) => s.mode)).toEqual(['tools']);
  });

  it('exits 2 with a clear message for an unknown mode', async () => {
    const result = await runCli(run('--prompt', 'hi', '--mode', 'scripts'), { env: testEnv(model) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--mode must be tools or code (got "scripts")');
    expect(result.stderr).toContain('Usage:');
    expect(model.requests).toHaveLength(0);
  });
});
