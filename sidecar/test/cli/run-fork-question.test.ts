// `cairn run --json` where a fork asks: its question is its parent's, so the run stops there as on the
// parent's own (exit 3), and the fork is cancelled with the turn.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forkCall, forkScript, spawn } from '../support/fork-script';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { jsonLines, runCli, setUpCliTest, tearDownCliTest } from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('fork-question'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn run: a fork asks', { timeout: 120_000 }, () => {
  it("without a terminal, a fork's question cancels the run (exit 3) and the fork with it", async () => {
    const s = forkScript(model);
    s.parent({ content: [spawn('asker')] }, forkCall('gather_all'));
    s.fork('asker', {
      content: [{ type: 'tool_use', name: 'AskUserQuestion', input: { question: 'Which colour?' } }],
    });
    const result = await runCli(
      ['run', '--workspace', workspace, '--data-dir', dataDir, '--prompt', 'split it', '--json'],
      { env: testEnv(model) },
    );

    expect(result.code, result.stderr).toBe(3);
    const lines = jsonLines(result.stdout);
    const asked = lines.find((l) => l.type === 'question.required') as { question: Record<string, unknown> };
    expect(asked.question).toMatchObject({ question: 'Which colour?', fork_id: expect.any(String) });
    const forkEnd = lines.findIndex(
      (l) => l.type === 'fork.updated' && (l.fork as { status: string }).status === 'cancelled',
    );
    expect(forkEnd).toBeGreaterThan(-1);
    expect(lines.at(-1)?.type).toBe('turn.cancelled');
  });
});
