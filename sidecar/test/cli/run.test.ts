import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import {
  CAN_USE_TERMINAL,
  enqueueColourQuestion,
  jsonLines,
  processGone,
  readPidFile,
  runCli,
  setUpCliTest,
  startCli,
  startCliOnTerminal,
  tearDownCliTest,
} from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('cli'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];

/** Reads the store the CLI left behind (read-only; the CLI has exited and released it). */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn run', { timeout: 120_000 }, () => {
  it('--json completes a Bash round trip, printing one JSON event a line', async () => {
    model.enqueue(
      {
        content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo written by cairn > out.txt' } }],
      },
      { content: [{ type: 'text', text: 'Wrote out.txt.' }] },
    );
    const result = await runCli(run('--prompt', 'write out.txt', '--json'), { env: testEnv(model) });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('written by cairn\n');
    const events = jsonLines(result.stdout);
    for (const event of events) {
      expect(typeof event.type).toBe('string');
      expect(Number.isInteger(event.seq)).toBe(true);
    }
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn.started');
    expect(types).toContain('tool.started');
    expect(types).toContain('tool.finished');
    expect(types.at(-1)).toBe('turn.completed');
    const seqs = events.map((e) => e.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.find((e) => e.type === 'tool.finished')?.status).toBe('completed');
    expect(model.requests).toHaveLength(2);
  });

  it('exits 1 with a turn.failed line when the model refuses the request', async () => {
    model.enqueue({
      kind: 'http_error',
      status: 401,
      type: 'authentication_error',
      message: 'invalid x-api-key',
      headers: { 'x-should-retry': 'false' },
    });
    const result = await runCli(run('--prompt', 'hello', '--json'), { env: testEnv(model) });

    expect(result.code).toBe(1);
    const events = jsonLines(result.stdout);
    const failed = events.find((e) => e.type === 'turn.failed');
    expect(failed).toBeDefined();
    expect(events.at(-1)?.type).toBe('turn.failed');
    expect(failed?.error).toMatchObject({ code: 'model_auth' });
  });

  it.each([
    { name: 'missing --prompt', args: ['run', '--workspace', '.'], message: '--prompt' },
    {
      name: 'an unknown flag',
      args: ['run', '--workspace', '.', '--prompt', 'x', '--bogus'],
      message: '--bogus',
    },
  ])('exits 2 with the usage on stderr for $name', async ({ args, message }) => {
    const result = await runCli([...args, '--data-dir', dataDir], { env: testEnv(model) });

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage:');
    expect(result.stderr).toContain('cairn run --workspace DIR --prompt TEXT');
    expect(model.requests).toHaveLength(0);
  });

  it('--json prints a question, cancels the turn and exits 3', async () => {
    model.enqueue({
      content: [
        {
          type: 'tool_use',
          name: 'AskUserQuestion',
          input: { question: 'Which colour?', options: ['red', 'blue'] },
        },
      ],
    });
    const result = await runCli(run('--prompt', 'paint it', '--json'), { env: testEnv(model) });

    expect(result.code).toBe(3);
    const events = jsonLines(result.stdout);
    const asked = events.find((e) => e.type === 'question.required');
    const question = asked?.question as { id: string; question: string; options: string[] };
    expect(question.question).toBe('Which colour?');
    expect(question.options).toEqual(['red', 'blue']);
    expect(events.at(-1)?.type).toBe('turn.cancelled');
    expect(model.requests).toHaveLength(1);

    const turnId = asked?.turn_id as string;
    expect(query<{ status: string }>('SELECT status FROM turns WHERE id = ?', turnId)).toEqual([
      { status: 'cancelled' },
    ]);
    expect(query<{ status: string }>('SELECT status FROM questions WHERE id = ?', question.id)).toEqual([
      { status: 'closed' },
    ]);
  });

  it('SIGINT while a Bash command runs cancels the turn, stops the command and exits 130', async () => {
    model.enqueue({
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1000 & echo $! > sleep.pid; wait' } },
      ],
    });
    const pidFile = path.join(workspace, 'sleep.pid');
    const cli = startCli(run('--prompt', 'sleep', '--json'), { env: testEnv(model) });
    const sleepPid = await vi.waitFor(
      () => {
        const pid = readPidFile(pidFile);
        if (pid === null) throw new Error(`no pid in ${pidFile} yet; stderr: ${cli.stderr}`);
        return pid;
      },
      { timeout: 30_000, interval: 20 },
    );
    strays.push(sleepPid);
    await cli.waitForStdout(/"type":"tool\.started"/);
    cli.child.kill('SIGINT');
    const result = await cli.result();

    expect(result.code).toBe(130);
    const events = jsonLines(result.stdout);
    expect(events.at(-1)?.type).toBe('turn.cancelled');
    expect(events.find((e) => e.type === 'tool.finished')?.status).toBe('cancelled');
    await vi.waitFor(() => expect(processGone(sleepPid)).toBe(true), { timeout: 10_000, interval: 50 });
    expect(query<{ status: string }>('SELECT status FROM turns')).toEqual([{ status: 'cancelled' }]);
  });

  it('without --json and without a terminal, prints the answer on stdout and notes on stderr', async () => {
    model.enqueue(
      {
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } },
        ],
      },
      { content: [{ type: 'text', text: 'All done.' }] },
    );
    const result = await runCli(run('--prompt', 'look around'), { env: testEnv(model) });

    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Let me look.\nAll done.\n');
    expect(result.stderr).toContain('▸ Bash echo hi');
    expect(result.stderr).toMatch(/completed in \d+ ms/);
  });

  it.runIf(process.platform !== 'win32')(
    'narrows a data directory open to others and says so once on stderr, keeping stdout for events',
    async () => {
      fs.chmodSync(dataDir, 0o755);
      model.enqueue({ content: [{ type: 'text', text: 'Hi.' }] });
      const result = await runCli(run('--prompt', 'hello', '--json'), { env: testEnv(model) });

      expect(result.code).toBe(0);
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      const warnings = result.stderr.split('\n').filter((line) => line.includes('open to other users'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^cairn: The data directory .* \(mode 0755\)/);
      expect(jsonLines(result.stdout).at(-1)?.type).toBe('turn.completed');
    },
  );

  it('without --json and without a terminal, a question cancels the turn and exits 3', async () => {
    model.enqueue({
      content: [{ type: 'tool_use', name: 'AskUserQuestion', input: { question: 'Proceed?' } }],
    });
    const result = await runCli(run('--prompt', 'go'), { env: testEnv(model) });

    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Proceed?');
    expect(result.stderr).toContain('No terminal to answer at');
  });

  it('--session continues the same session, and the project is reused by folder', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'First answer.' }] });
    const first = await runCli(run('--prompt', 'first prompt', '--json'), { env: testEnv(model) });
    expect(first.code).toBe(0);
    const sessionId = jsonLines(first.stdout)[0]?.session_id as string;
    expect(sessionId).toEqual(expect.any(String));

    model.enqueue({ content: [{ type: 'text', text: 'Second answer.' }] });
    const second = await runCli(run('--prompt', 'second prompt', '--json', '--session', sessionId), {
      env: testEnv(model),
    });
    expect(second.code).toBe(0);
    const secondEvents = jsonLines(second.stdout);
    expect(secondEvents.every((e) => e.session_id === sessionId)).toBe(true);
    expect(secondEvents[0]).toMatchObject({ type: 'turn.started', ordinal: 2 });

    const sent = model.requests[1]!.body.messages;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent[0])).toContain('first prompt');
    expect(JSON.stringify(sent[1])).toContain('First answer.');
    expect(JSON.stringify(sent[2])).toContain('second prompt');

    // A run without --session opens a new session in the same project.
    model.enqueue({ content: [{ type: 'text', text: 'Third answer.' }] });
    const third = await runCli(run('--prompt', 'third prompt', '--json'), { env: testEnv(model) });
    expect(third.code).toBe(0);
    const thirdSession = jsonLines(third.stdout)[0]?.session_id as string;
    expect(thirdSession).not.toBe(sessionId);
    expect(model.requests[2]!.body.messages).toHaveLength(1);

    const projects = query<{ id: string; path: string }>('SELECT id, path FROM projects');
    expect(projects).toEqual([{ id: expect.any(String), path: workspace }]);
    const sessions = query<{ id: string; project_id: string }>(
      'SELECT id, project_id FROM sessions ORDER BY created_at',
    );
    expect(sessions.map((s) => s.id).sort()).toEqual([sessionId, thirdSession].sort());
    expect(sessions.every((s) => s.project_id === projects[0]!.id)).toBe(true);
  });

  it('after a run is killed with SIGKILL mid-tool, the next run starts and continues the session', async () => {
    model.enqueue({
      content: [
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'echo $$ > bash.pid; sleep 1000 & echo $! > sleep.pid; wait' },
        },
      ],
    });
    const cli = startCli(run('--prompt', 'sleep', '--json'), { env: testEnv(model) });
    const started = await cli.waitForStdout(/^(\{.*"type":"tool\.started".*)\n/m);
    const toolStarted = JSON.parse(started[1]!) as {
      session_id: string;
      turn_id: string;
      tool_use_id: string;
    };
    const pids = await vi.waitFor(
      () => {
        const bash = readPidFile(path.join(workspace, 'bash.pid'));
        const sleep = readPidFile(path.join(workspace, 'sleep.pid'));
        if (bash === null || sleep === null) throw new Error('the command has not written its pids yet');
        return { bash, sleep };
      },
      { timeout: 30_000, interval: 20 },
    );
    strays.push(pids.sleep, pids.bash);
    cli.child.kill('SIGKILL');
    expect((await cli.result()).signal).toBe('SIGKILL');
    expect(fs.existsSync(path.join(dataDir, 'cairn.lock'))).toBe(true);

    model.enqueue({ content: [{ type: 'text', text: 'Resumed.' }] });
    const next = await runCli(run('--prompt', 'carry on', '--json', '--session', toolStarted.session_id), {
      env: testEnv(model),
    });

    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    expect(jsonLines(next.stdout).at(-1)?.type).toBe('turn.completed');
    const sent = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(sent).toContain(`"tool_use_id":"${toolStarted.tool_use_id}"`);
    expect(query<{ status: string }>('SELECT status FROM turns WHERE id = ?', toolStarted.turn_id)).toEqual([
      { status: 'interrupted' },
    ]);
    expect(query<{ status: string }>('SELECT status FROM tool_calls')).toEqual([{ status: 'interrupted' }]);
    const types = query<{ type: string }>(
      'SELECT type FROM events WHERE turn_id = ? ORDER BY seq',
      toolStarted.turn_id,
    ).map((e) => e.type);
    expect(types.at(-1)).toBe('turn.interrupted');
  });

  it('--server without CAIRN_TOKEN is a usage error', async () => {
    const result = await runCli(run('--prompt', 'x', '--server', 'http://127.0.0.1:9'), {
      env: testEnv(model),
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CAIRN_TOKEN');
  });

  it('refuses a workspace that does not exist with exit 1, and releases the data directory', async () => {
    const missing = path.join(workspace, 'missing');
    const result = await runCli(['run', '--workspace', missing, '--prompt', 'x', '--data-dir', dataDir], {
      env: testEnv(model),
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(missing);
    expect(fs.existsSync(path.join(dataDir, 'cairn.lock'))).toBe(false);
    expect(model.requests).toHaveLength(0);
  });

  it('--session refuses an unknown session with exit 1', async () => {
    const result = await runCli(run('--prompt', 'x', '--session', 'ses_nope'), { env: testEnv(model) });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ses_nope');
    expect(model.requests).toHaveLength(0);
  });
});

describe.skipIf(!CAN_USE_TERMINAL)('cairn run on a terminal', { timeout: 120_000 }, () => {
  const askColour = () => enqueueColourQuestion(model);

  it('asks the question at the prompt and passes the answer on (an option by its number)', async () => {
    askColour();
    model.enqueue({ content: [{ type: 'text', text: 'Blue it is.' }] });
    const cli = startCliOnTerminal(run('--prompt', 'paint it'), { env: testEnv(model) });
    await cli.waitForStdout(/Which colour\?[\s\S]*2\. blue[\s\S]*> /);
    cli.type('2\r');
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Blue it is.');
    const results = JSON.stringify(model.requests[1]?.body.messages.at(-1));
    expect(results).toContain('The user answered: blue');
    expect(query<{ status: string; answer: string }>('SELECT status, answer FROM questions')).toEqual([
      { status: 'answered', answer: 'blue' },
    ]);
  });

  it('Ctrl+C at the prompt cancels the turn and exits 130', async () => {
    askColour();
    const cli = startCliOnTerminal(run('--prompt', 'paint it'), { env: testEnv(model) });
    await cli.waitForStdout(/Which colour\?[\s\S]*> /);
    cli.type('\x03');
    const result = await cli.result();

    expect(result.code).toBe(130);
    expect(result.stdout).toContain('Cancelled.');
    expect(query<{ status: string }>('SELECT status FROM turns')).toEqual([{ status: 'cancelled' }]);
    expect(model.requests).toHaveLength(1);
  });

  it('SIGTERM while the prompt waits cancels the turn, withdraws the prompt and exits 130', async () => {
    askColour();
    const cli = startCliOnTerminal(run('--prompt', 'paint it'), { env: testEnv(model) });
    await cli.waitForStdout(/Which colour\?[\s\S]*> /);
    process.kill(cli.cliPid(), 'SIGTERM');
    const result = await cli.result();

    expect(result.code).toBe(130);
    expect(query<{ status: string }>('SELECT status FROM turns')).toEqual([{ status: 'cancelled' }]);
    expect(query<{ status: string }>('SELECT status FROM questions')).toEqual([{ status: 'closed' }]);
  });
});
