// `cairn chat` on a real pseudo-terminal (util-linux `script`), on the local data directory: lines become
// turns of one session, questions are answered at the prompt, Ctrl+C cancels a running answer.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import {
  CAN_USE_TERMINAL,
  enqueueColourQuestion,
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
  ({ model, dataDir, workspace } = await setUpCliTest('chat'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, strays));

/** Reads the store the CLI left behind (read-only; the CLI has exited and released it). */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const askColour = () => enqueueColourQuestion(model);

/** The text of every message the model was sent in request `i`. */
const sent = (i: number) => JSON.stringify(model.requests[i]?.body.messages);

describe.skipIf(!CAN_USE_TERMINAL)('cairn chat on a terminal', { timeout: 120_000 }, () => {
  it('runs each line as a turn of one session, answers a question, cancels on Ctrl+C, quits on /exit', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'Hello from the model.' }] });
    const cli = startCliOnTerminal(['chat', '--workspace', workspace, '--data-dir', dataDir], {
      env: testEnv(model),
    });
    await cli.waitForStdout(/Type a message[\s\S]*> /);

    cli.type('first words\r');
    await cli.waitForStdout(/Hello from the model\.[\s\S]*> /);
    const sessionId = (
      await cli.waitForStdout(/Session (\S+) \(resume it with: cairn chat --session \1\)/)
    )[1];

    askColour();
    model.enqueue({ content: [{ type: 'text', text: 'Blue it is.' }] });
    cli.type('paint it\r');
    await cli.waitForStdout(/Which colour\?[\s\S]*2\. blue[\s\S]*> /);
    cli.type('2\r');
    await cli.waitForStdout(/Blue it is\.[\s\S]*> /);

    // A slow answer: the stream stays open until the turn is cancelled.
    model.enqueue({ content: [{ type: 'text', text: 'Thinking slowly' }], hang: true });
    cli.type('take your time\r');
    await cli.waitForStdout(/Thinking slowly/);
    cli.type('\x03');
    await cli.waitForStdout(/Cancelled\.[\s\S]*> /);
    await model.waitForDisconnect();

    cli.type('/exit\r');
    const result = await cli.result();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Resume with: cairn chat --session ${sessionId}`);
    expect(query('SELECT id FROM sessions')).toEqual([{ id: sessionId }]);
    expect(query('SELECT status FROM turns ORDER BY created_at')).toEqual([
      { status: 'completed' },
      { status: 'completed' },
      { status: 'cancelled' },
    ]);
    expect(query('SELECT status, answer FROM questions')).toEqual([{ status: 'answered', answer: 'blue' }]);
    // The second line went to the same conversation: the model saw the first.
    expect(sent(1)).toContain('first words');
    expect(sent(1)).toContain('Hello from the model.');
    expect(JSON.stringify(model.requests[2]?.body.messages.at(-1))).toContain('The user answered: blue');
  });

  it('--session resumes a session in its own project; Ctrl+D quits, and so does Ctrl+C at the prompt', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'First answer.' }] });
    const first = startCliOnTerminal(['chat', '--workspace', workspace, '--data-dir', dataDir], {
      env: testEnv(model),
    });
    await first.waitForStdout(/> /);
    first.type('remember the word otter\r');
    const sessionId = (await first.waitForStdout(/Session (\S+) \(resume/))[1]!;
    await first.waitForStdout(/First answer\.[\s\S]*> /);
    first.type('\x04');
    expect((await first.result()).code).toBe(0);

    model.enqueue({ content: [{ type: 'text', text: 'Otter, yes.' }] });
    // No --workspace: the session's project is where it runs.
    const again = startCliOnTerminal(['chat', '--session', sessionId, '--data-dir', dataDir], {
      env: testEnv(model),
    });
    await again.waitForStdout(new RegExp(`Session ${sessionId}[\\s\\S]*> `));
    again.type('which word?\r');
    await again.waitForStdout(/Otter, yes\.[\s\S]*> /);
    // Ctrl+C at an idle prompt quits too, as interrupted.
    again.type('\x03');
    expect((await again.result()).code).toBe(130);
    expect(sent(1)).toContain('remember the word otter');
    expect(query('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 1 }]);
    expect(query('SELECT path FROM projects')).toEqual([{ path: workspace }]);
  });

  it('Ctrl+C twice during an answer quits (130); the turn ends cancelled', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'Going on and on' }], hang: true });
    const cli = startCliOnTerminal(['chat', '--workspace', workspace, '--data-dir', dataDir], {
      env: testEnv(model),
    });
    await cli.waitForStdout(/> /);
    cli.type('talk\r');
    await cli.waitForStdout(/Going on and on/);
    cli.type('\x03');
    await cli.waitForStdout(/Ctrl\+C again quits/);
    cli.type('\x03');
    const result = await cli.result();
    expect(result.code).toBe(130);
    expect(query('SELECT status FROM turns')).toEqual([{ status: 'cancelled' }]);
  });
});

describe('cairn chat with piped input', { timeout: 120_000 }, () => {
  it('runs each line as a turn, cancels a question no one can answer here, and ends with the input', async () => {
    model.enqueue({ content: [{ type: 'text', text: 'One.' }] });
    askColour();
    model.enqueue({ content: [{ type: 'text', text: 'Three.' }] });
    const result = await runCli(['chat', '--workspace', workspace, '--data-dir', dataDir], {
      env: testEnv(model),
      input: 'first\nsecond\n\nthird\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('One.\nThree.\n');
    expect(result.stderr).toContain('No terminal to answer at: cancelling.');
    expect(query('SELECT status FROM turns ORDER BY created_at')).toEqual([
      { status: 'completed' },
      { status: 'cancelled' },
      { status: 'completed' },
    ]);
    expect(sent(2)).toContain('first');
  });
});
