// `cairn run` when an MCP server asks the user to fill a form (elicitation), through the real command line
// and a real SDK-built server: field by field on a terminal, each field checked as typed; exit 3 with --json.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommandLine } from '../../src/mcp/command-line';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import {
  CAN_USE_TERMINAL,
  jsonLines,
  REPO_ROOT,
  runCli,
  setUpCliTest,
  startCliOnTerminal,
  tearDownCliTest,
} from './cli-process';

const ELICIT_SERVER = path.join(REPO_ROOT, 'sidecar/test/mcp/fixtures/elicit-server.mjs');
const TOOL = 'mcp__forms__fill_form';

let model: ModelServer;
let dataDir: string;
let workspace: string;
const strays: (number | null)[] = [];

// One data folder with the server for the file: each CLI start costs a second or more.
beforeAll(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('elicit'));
  const config = {
    name: 'forms',
    transport: 'stdio',
    command: formatCommandLine(process.execPath, [ELICIT_SERVER]),
  };
  const env = testEnv(model);
  const added = await runCli(['config', 'mcp', 'add', '--file', '-', '--data-dir', dataDir], {
    env,
    input: JSON.stringify(config),
  });
  const id = added.stdout.match(/Added MCP server forms \((\S+)\)/)?.[1];
  expect(id, added.stderr).toBeDefined();
  expect((await runCli(['config', 'mcp', 'enable', id!, '--data-dir', dataDir], { env })).code).toBe(0);
}, 60_000);

afterAll(() => tearDownCliTest({ model, dataDir, workspace }, strays));

const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];
const callTool = () =>
  model.enqueue({ content: [{ type: 'tool_use', name: TOOL, input: { message: 'Who are you?' } }] });

describe('cairn run: an MCP server’s form', { timeout: 120_000 }, () => {
  it('with --json and no terminal, stops at the form and exits 3', async () => {
    callTool();
    const result = await runCli(run('--prompt', 'ask me', '--json'), { env: testEnv(model) });
    expect(result.code).toBe(3);
    const asked = jsonLines(result.stdout).find((e) => e.type === 'question.required') as {
      question: { kind: string; question: string; elicitation: { server_name: string } };
    };
    expect(asked.question).toMatchObject({
      kind: 'elicitation',
      question: 'Who are you?',
      elicitation: { server_name: 'forms' },
    });
  });

  it.skipIf(!CAN_USE_TERMINAL)('on a terminal, asks field by field and sends the form', async () => {
    callTool();
    model.enqueue({ content: [{ type: 'text', text: 'Thanks.' }] });
    const cli = startCliOnTerminal(run('--prompt', 'ask me'), { env: testEnv(model) });
    await cli.waitForStdout(/MCP server "forms" asks: Who are you\?[\s\S]*3\. cancel[\s\S]*> /);
    cli.type('1\r');
    let prompts = 0;
    // Each answer is typed at the next field's prompt ("  > ", amid the terminal's cursor codes), in order.
    const answer = async (text: string, shown?: RegExp) => {
      prompts++;
      const match = await cli.waitForStdout(new RegExp(`^(?:[\\s\\S]*?  > ){${prompts}}`));
      if (shown) expect(match[0]).toMatch(shown);
      cli.type(`${text}\r`);
    };
    await answer('A', /Name \(required\)\r?\n {4}Who you are/);
    await answer('Ann', /Name must be at least 2 characters\./); // asked again
    await answer('', /email \(an email address; Enter: ann@example\.com\)/);
    await answer('https://example.org');
    await answer(''); // birthday: its default
    await answer(''); // meeting: left out
    await answer('41', /age \(required\) \(a whole number ≥ 0 ≤ 150; Enter: 30\)/);
    await answer('');
    await answer('n', /subscribe \(y\/n; Enter: true\)/);
    await answer('3', /1\. red\r?\n {4}2\. green\r?\n {4}3\. blue/);
    await answer('Small', /1\. Small\r?\n {4}2\. Large/);
    await answer('');
    await answer('2');
    const result = await cli.result();

    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('Thanks.');
    const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db
        .prepare("SELECT answer FROM questions WHERE kind = 'elicitation' ORDER BY rowid DESC LIMIT 1")
        .get() as { answer: string };
      expect(row.answer).toBe('accept');
    } finally {
      db.close();
    }
    // What the server's tool got back, as the model saw it.
    const last = JSON.stringify(model.requests.at(-1)?.body.messages.at(-1));
    const text = /\{\\"action\\".*?\}\}/.exec(last)![0].replace(/\\"/g, '"');
    const got = JSON.parse(text) as unknown;
    expect(got).toEqual({
      action: 'accept',
      content: {
        name: 'Ann',
        email: 'ann@example.com',
        site: 'https://example.org',
        birthday: '2000-01-02',
        age: 41,
        subscribe: false,
        color: 'blue',
        size: 's',
        tags: ['a'],
        toppings: ['ol'],
      },
    });
  });
});
