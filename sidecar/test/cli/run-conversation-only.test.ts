// `cairn run` where Cairn runs conversation-only (CAIRN_CONVERSATION_ONLY): there are no projects, so the
// turn runs as a plain conversation, in this process or on a conversation-only `cairn serve`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { jsonLines, runCli, setUpCliTest, startServe, tearDownCliTest } from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('conversation'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const env = () => testEnv(model, { CAIRN_CONVERSATION_ONLY: 'true' });
const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn run, conversation-only', { timeout: 120_000 }, () => {
  it('runs the turn without the folder: no project tools offered, one that is asked for is refused', async () => {
    model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > out.txt' } }] },
      { content: [{ type: 'text', text: 'Just talking, then.' }] },
    );
    const result = await runCli(run('--prompt', 'hello'), { env: env() });

    expect(result.stderr).not.toContain('no projects');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Just talking, then.');
    expect(result.stderr).toContain(
      `cairn: Conversation-only (CAIRN_CONVERSATION_ONLY): ${workspace} is not opened`,
    );
    const first = model.requests[0]!.body;
    expect(first.tools?.map((t) => t.name)).toEqual(['AskUserQuestion', 'Context', 'Fork', 'ToolControl']);
    expect(String(first.system)).not.toContain(workspace);
    expect(JSON.stringify(model.requests[1]!.body.messages.at(-1))).toContain('There is no tool named Bash');
  });

  it('--session continues the conversation', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'First answer.' }] });
    const first = await runCli(run('--prompt', 'first prompt', '--json'), { env: env() });
    expect(first.code).toBe(0);
    const sessionId = jsonLines(first.stdout)[0]?.session_id as string;

    model.enqueue({ content: [{ type: 'text', text: 'Second answer.' }] });
    const second = await runCli(run('--prompt', 'second prompt', '--json', '--session', sessionId), {
      env: env(),
    });
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout)[0]).toMatchObject({
      type: 'turn.started',
      session_id: sessionId,
      ordinal: 2,
    });
    expect(model.requests[1]!.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('--server to a conversation-only cairn serve runs the turn there', async () => {
    const serve = await startServe(dataDir, env());
    try {
      model.enqueue({ content: [{ type: 'text', text: 'From the server.' }] });
      const result = await runCli(
        ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'hello', '--json'],
        { env: testEnv(model, { CAIRN_TOKEN: serve.token }) },
      );

      expect(result.code).toBe(0);
      expect(jsonLines(result.stdout).at(-1)?.type).toBe('turn.completed');
      expect(result.stderr).toContain('cairn: The server runs conversation-only');
      expect(model.requests[0]!.body.tools?.map((t) => t.name)).toEqual([
        'AskUserQuestion',
        'Context',
        'Fork',
        'ToolControl',
      ]);
    } finally {
      serve.proc.child.kill('SIGTERM');
      await serve.proc.exited;
    }
  });
});
