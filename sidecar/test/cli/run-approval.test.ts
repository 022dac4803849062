// `cairn run` in a session whose approval mode is `ask`: the approval is shown with the whole call, through
// the real command line; answered on a terminal, or cancelled where there is none.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import {
  CAN_USE_TERMINAL,
  jsonLines,
  runCli,
  setUpCliTest,
  startCliOnTerminal,
  tearDownCliTest,
} from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('approval'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];

// Long enough that the question's own text (the path only) would say nothing of it; one hidden override.
const CONTENT = `${Array.from({ length: 60 }, (_, i) => `row ${i + 1}`).join('\n')}\nadmin = False \u202e# ok\n`;

/** A session in `ask` mode, made by a first run and switched in the store (the CLI has let go of it). */
async function askingSession(): Promise<string> {
  model.enqueue({ content: [{ type: 'text', text: 'Ready.' }] });
  const first = await runCli(run('--prompt', 'hello', '--json'), { env: testEnv(model) });
  expect(first.code).toBe(0);
  const sessionId = jsonLines(first.stdout)[0]?.session_id as string;
  const db = new Database(path.join(dataDir, 'cairn.db'), { fileMustExist: true });
  try {
    db.prepare("UPDATE sessions SET approval = 'ask' WHERE id = ?").run(sessionId);
  } finally {
    db.close();
  }
  model.enqueue({
    content: [{ type: 'tool_use', name: 'Write', input: { path: 'notes/a.py', content: CONTENT } }],
  });
  return sessionId;
}

function expectWholeWrite(text: string): void {
  expect(text).toContain('? Allow Write?');
  expect(text).toContain(`file: ${path.join(workspace, 'notes', 'a.py')} (given as notes/a.py)`);
  expect(text).toContain('content, 61 lines');
  expect(text).toMatch(/⚠ 1 invisible or direction-changing character shown as \\uXXXX/);
  for (let i = 1; i <= 60; i++) expect(text).toContain(`│ row ${i}\n`);
  expect(text).toContain('│ admin = False \\u202e# ok');
  expect(text).not.toContain('\u202e');
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn run: approvals', { timeout: 120_000 }, () => {
  it('without a terminal, shows the whole call, then cancels (exit 3) and writes nothing', async () => {
    const sessionId = await askingSession();
    const result = await runCli(run('--prompt', 'write it', '--session', sessionId), {
      env: testEnv(model),
      input: 'allow\n',
    });

    expect(result.code).toBe(3);
    expectWholeWrite(result.stderr);
    expect(result.stderr).toContain('No terminal to answer at: cancelling.');
    expect(fs.existsSync(path.join(workspace, 'notes', 'a.py'))).toBe(false);
  });
});

describe.skipIf(!CAN_USE_TERMINAL)('cairn run: approvals on a terminal', { timeout: 120_000 }, () => {
  it('shows the whole call before the prompt; allowing it writes the file', async () => {
    const sessionId = await askingSession();
    model.enqueue({ content: [{ type: 'text', text: 'Written.' }] });
    const cli = startCliOnTerminal(run('--prompt', 'write it', '--session', sessionId), {
      env: testEnv(model),
    });
    await cli.waitForStdout(/1\. allow once[\s\S]*5\. always deny[\s\S]*> /);
    expectWholeWrite(cli.stdout.replace(/\r\n/g, '\n'));
    cli.type('1\r');
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(workspace, 'notes', 'a.py'), 'utf8')).toBe(CONTENT);
  });

  it('"always allow" saves a project rule with the edited pattern, and it decides the next call', async () => {
    const sessionId = await askingSession();
    model.enqueue({ content: [{ type: 'text', text: 'Written.' }] });
    const cli = startCliOnTerminal(run('--prompt', 'write it', '--session', sessionId), {
      env: testEnv(model),
    });
    await cli.waitForStdout(
      /why: [^\n]*\n[\s\S]*3\. always allow in this project \(rule: Write notes\/\*\*\)[\s\S]*> /,
    );
    cli.type('3\r');
    await cli.waitForStdout(/pattern \[notes\/\*\*\]: /);
    cli.type('notes/*.py\r');
    expect((await cli.result()).code).toBe(0);
    expect(fs.readFileSync(path.join(workspace, 'notes', 'a.py'), 'utf8')).toBe(CONTENT);
    const db = new Database(path.join(dataDir, 'cairn.db'), { fileMustExist: true });
    try {
      const rules = db
        .prepare('SELECT tool, pattern, action, project_id, session_id FROM permission_rules')
        .all();
      expect(rules).toEqual([
        {
          tool: 'Write',
          pattern: 'notes/*.py',
          action: 'allow',
          project_id: expect.any(String),
          session_id: null,
        },
      ]);
    } finally {
      db.close();
    }

    // The rule decides the next Write there: no prompt, even with no terminal to answer at.
    model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'notes/b.py', content: 'b' } }] },
      { content: [{ type: 'text', text: 'Again.' }] },
    );
    const next = await runCli(run('--prompt', 'again', '--session', sessionId), { env: testEnv(model) });
    expect(next.code).toBe(0);
    expect(fs.readFileSync(path.join(workspace, 'notes', 'b.py'), 'utf8')).toBe('b');
  });
});
