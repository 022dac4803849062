import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CairnClient } from '../client';
import { CairnError } from '../errors';
import type { SessionMode } from '../protocol';
import { BACKEND_FLAGS, type OpenBackend, withBackend } from './backend-session';
import { PromptReader } from './prompt-reader';
import { RemoteTurnDriver } from './remote-turn-driver';
import { parseMode } from './run-command';
import type { HttpFrontDoor } from './serve-command';
import { TurnRun } from './turn-run';
import { describeError, EXIT } from './usage';

/**
 * `cairn chat [--workspace DIR] [--session ID] [--mode tools|code]`: each line typed is a turn in one
 * session. The turns go through the API (RemoteTurnDriver) whether the server is --server or the one
 * this command starts on the local data directory, so both run the same code.
 */
export async function chatCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...BACKEND_FLAGS,
      workspace: { type: 'string' },
      session: { type: 'string' },
      mode: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const mode = parseMode(values.mode);
  return withBackend(values, http, async (open) => {
    const workspace = await chatWorkspace(open.client, values.workspace, values.session);
    return new Chat(open, workspace, values.session ?? null, mode).run();
  });
}

/**
 * The folder the session's project is: --workspace, else the project of --session, else the current
 * directory (opened as a project on the first line, like `cairn run --workspace .`).
 */
async function chatWorkspace(
  client: CairnClient,
  workspace: string | undefined,
  sessionId: string | undefined,
): Promise<string> {
  if (workspace !== undefined || sessionId === undefined) return path.resolve(workspace ?? '.');
  const session = await client.getSession(sessionId);
  if (session.project_id === null) {
    // A conversation-only server has no projects: the folder is not used there.
    if (!(await client.capabilities()).projects) return path.resolve('.');
    throw new CairnError(
      'bad_request',
      `Session ${sessionId} belongs to no project; cairn chat continues sessions of a project (see \`cairn sessions list\`).`,
    );
  }
  const project = (await client.listProjects()).find((p) => p.id === session.project_id);
  if (!project) throw new CairnError('not_found', `The project of session ${sessionId} is gone.`);
  return project.path;
}

class Chat {
  private readonly reader = new PromptReader(process.stdin.isTTY === true);
  private readonly noticed = new Set<string>();
  /** The turn running now, if any: Ctrl+C cancels it. */
  private current: TurnRun | null = null;
  /** Set by a second Ctrl+C or SIGTERM; wakes the chat out of a turn it no longer waits for. */
  private quitting = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly open: OpenBackend,
    private readonly workspace: string,
    private sessionId: string | null,
    /** --mode, for the first turn only (it switches the session; later turns keep it). */
    private mode: SessionMode | null,
  ) {}

  async run(): Promise<number> {
    // For the whole chat: a Ctrl+C between a turn's end and the next prompt must not kill the process.
    const onSigint = () => this.interrupt();
    const onSigterm = () => {
      this.current?.stop('sigint');
      this.quit();
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    if (this.sessionId) this.announce();
    process.stderr.write('Type a message. /exit or Ctrl+D quits; Ctrl+C cancels a running answer.\n');
    try {
      for (;;) {
        if (this.quitting) return EXIT.interrupted;
        const read = await this.reader.next('> ');
        if (read.kind === 'eof') return EXIT.ok;
        if (read.kind === 'interrupt') return EXIT.interrupted;
        const text = read.text.trim();
        if (text === '') continue;
        if (text === '/exit') return EXIT.ok;
        await this.turn(text);
      }
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      this.reader.close();
      if (this.sessionId) process.stderr.write(`Resume with: cairn chat --session ${this.sessionId}\n`);
    }
  }

  /** Ctrl+C: cancels the running turn; a second one (or one while idle) quits. */
  private interrupt(): void {
    const turn = this.current;
    if (turn && turn.endedBy === null) {
      turn.stop('sigint');
      process.stderr.write('\nCancelling the answer… (Ctrl+C again quits)\n');
      return;
    }
    this.quit();
  }

  private quit(): void {
    this.quitting = true;
    this.wake?.();
    this.reader.interrupt();
  }

  /** Runs one line as a turn, until it ends or the chat quits. */
  private async turn(prompt: string): Promise<void> {
    const driver = new RemoteTurnDriver({
      serverUrl: this.open.backend.url,
      token: this.open.backend.token,
      workspace: this.workspace,
      prompt,
      sessionId: this.sessionId,
      mode: this.mode,
      notice: (text) => this.notice(text),
    });
    const turn = new TurnRun(driver, {
      json: false,
      interactive: process.stdin.isTTY === true,
      workspace: this.workspace,
    });
    this.current = turn;
    const running = turn.run((sessionId) => {
      this.mode = null;
      if (this.sessionId === null) {
        this.sessionId = sessionId;
        this.announce();
      }
    });
    // When the chat quits first, the turn's end (or its connection closing) is no one's business.
    running.catch(() => undefined);
    const quit = new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    try {
      await Promise.race([running, quit]);
    } catch (error) {
      // A turn that could not start (the session busy elsewhere, the server gone) ends this line only.
      process.stderr.write(`cairn: ${describeError(error)}\n`);
    } finally {
      this.current = null;
      this.wake = null;
    }
  }

  private announce(): void {
    process.stderr.write(
      `Session ${this.sessionId} (resume it with: cairn chat --session ${this.sessionId})\n`,
    );
  }

  /** A driver's notice (e.g. conversation-only) once per chat, not once per line. */
  private notice(text: string): void {
    if (this.noticed.has(text)) return;
    this.noticed.add(text);
    process.stderr.write(`cairn: ${text}\n`);
  }
}
