// A deprecated model: the SDK's own warning (console.warn, two lines, on every request) reaches the user as
// one line on stderr and one warning in the log, however many requests the process makes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { runCli, setUpCliTest, tearDownCliTest } from './cli-process';

// The SDK decides by model id from its own list, so this one test names a real deprecated model (it only
// ever reaches the local model server). Every other test uses made-up ids.
const DEPRECATED = 'claude-opus-4-5';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('deprecated'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

describe('cairn run with a deprecated model', { timeout: 120_000 }, () => {
  it('says so once, in one line with what to do, over two model requests', async () => {
    model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    const result = await runCli(
      ['run', '--workspace', workspace, '--data-dir', dataDir, '--prompt', 'say hi', '--json'],
      { env: testEnv(model, { CAIRN_MODEL: DEPRECATED }) },
    );

    expect(result.code).toBe(0);
    expect(model.requests.map((r) => r.body.model)).toEqual([DEPRECATED, DEPRECATED]);
    expect(result.stderr).toMatch(
      new RegExp(
        `^cairn: Model ${DEPRECATED} is deprecated and reaches end of life on \\w+ \\d+\\w*, \\d{4}: ` +
          'choose a current model in Settings or with `cairn config model add`\\.\\n$',
      ),
    );
    const logged = fs
      .readFileSync(path.join(dataDir, 'logs', 'cairn.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'model deprecated');
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', model: DEPRECATED, end_of_life: expect.any(String) }),
    ]);
  });
});
