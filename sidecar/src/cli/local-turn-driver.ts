import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type Application, openApplication } from '../application/composition-root';
import { titleFromPrompt } from '../application/sessions/session-title';
import { CairnError } from '../errors';
import type { AnswerQuestionRequest, CairnEvent, SessionMode, TurnStatus } from '../protocol';
import { Deferred } from './deferred';
import { TERMINAL_STATUS, type TurnDriver } from './turn-driver';

export interface LocalRunOptions {
  dataDir: string;
  workspace: string;
  prompt: string;
  sessionId: string | null;
  /** --mode: the new session's mode, or the given session switched to it; null leaves it as it is. */
  mode: SessionMode | null;
  /** A line for the person at the terminal (stderr), e.g. that the workspace is not used. */
  notice: (text: string) => void;
}

/** Runs the turn in this process, owning the data directory for its duration. */
export class LocalTurnDriver implements TurnDriver {
  private core: Application | null = null;
  private turnId: string | null = null;
  private sessionId: string | null = null;
  private readonly done = new Deferred<TurnStatus>();

  constructor(private readonly options: LocalRunOptions) {}

  async start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }> {
    try {
      this.core = openApplication({ dataDir: this.options.dataDir, command: 'cairn run' });
    } catch (error) {
      if (error instanceof CairnError && error.code === 'data_dir_locked') {
        throw new CairnError(
          'data_dir_locked',
          `${error.message}\nIf that is a running \`cairn serve\`, submit to it instead: cairn run --server http://127.0.0.1:PORT … (with CAIRN_TOKEN set).`,
        );
      }
      throw error;
    }
    const { turns, events } = this.core.services;
    const sid = this.openSession(this.core);
    const { mode } = this.options;
    if (mode !== null && this.core.services.sessions.get(sid).mode !== mode) {
      this.core.services.sessions.update(sid, { mode });
    }
    this.sessionId = sid;
    // Subscribe before starting, so turn.started is seen too; events of other turns are ignored.
    events.subscribe((event) => {
      if (event.session_id !== sid || this.turnId === null || event.turn_id !== this.turnId) return;
      onEvent(event);
      const status = TERMINAL_STATUS[event.type];
      if (status) this.done.resolve(status);
    });
    const pending: CairnEvent[] = [];
    const early = events.subscribe((event) => {
      if (event.session_id === sid && this.turnId === null) pending.push(event);
    });
    const turn = turns.start(sid, { prompt: this.options.prompt, request_id: randomUUID() });
    early();
    this.turnId = turn.id;
    for (const event of pending) if (event.turn_id === turn.id) onEvent(event);
    return { sessionId: sid, turnId: turn.id };
  }

  /** The session to run in: the given one, or a new one in the workspace's project (none conversation-only). */
  private openSession(core: Application): string {
    const { projects, sessions } = core.services;
    const { workspace, sessionId, prompt } = this.options;
    if (core.conversationOnly) {
      // No projects here: the turn runs as a plain conversation, without the tools that need a folder.
      this.options.notice(
        `Conversation-only (CAIRN_CONVERSATION_ONLY): ${workspace} is not opened; the turn runs as a plain conversation, without shell, file, Python or MCP tools.`,
      );
      return sessionId
        ? sessions.get(sessionId).id
        : sessions.create({ title: titleFromPrompt(prompt), ...this.modeField() }).id;
    }
    const project = projects.open(path.resolve(workspace));
    if (!sessionId) {
      return sessions.create({ project_id: project.id, title: titleFromPrompt(prompt), ...this.modeField() })
        .id;
    }
    const session = sessions.get(sessionId);
    if (session.project_id !== project.id) {
      throw new CairnError(
        'bad_request',
        `Session ${sessionId} belongs to another project, not ${project.path}.`,
      );
    }
    return session.id;
  }

  private modeField(): { mode?: SessionMode } {
    return this.options.mode === null ? {} : { mode: this.options.mode };
  }

  finished(): Promise<TurnStatus> {
    return this.done.promise;
  }

  async answer(questionId: string, answer: AnswerQuestionRequest): Promise<void> {
    this.core?.services.questions.answer(questionId, answer);
  }

  async replyInput(kernel: string, requestId: string, value: string): Promise<void> {
    if (!this.core || !this.sessionId) return;
    this.core.services.kernels().reply(this.sessionId, kernel, requestId, value);
  }

  async cancel(): Promise<void> {
    if (this.core && this.turnId) await this.core.services.turns.cancel(this.turnId);
  }

  /** Ends the run: background calls still running are cancelled (nothing would watch them), and said so. */
  async close(): Promise<void> {
    if (this.core && this.sessionId) {
      const { toolRuntime } = this.core.services;
      const running = toolRuntime.runningBackground(this.sessionId);
      if (running.length > 0) {
        const list = running.map((c) => `${c.id} (${c.name})`).join(', ');
        this.options.notice(
          `cancelling ${running.length} background call${running.length === 1 ? '' : 's'} still running as cairn run exits: ${list}`,
        );
        await Promise.all(running.map((c) => toolRuntime.cancel(c.id)));
      }
    }
    await this.core?.close();
    this.core = null;
  }
}
