import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openProject } from '../agent/project-service';
import { titleFromPrompt } from '../agent/session-title';
import { openSidecarCore, type SidecarCore } from '../agent/sidecar-core';
import { CairnError, notFound } from '../errors';
import type { CairnEvent, TurnStatus } from '../protocol';
import { Deferred } from './deferred';
import { TERMINAL_STATUS, type TurnDriver } from './turn-driver';

export interface LocalRunOptions {
  dataDir: string;
  workspace: string;
  prompt: string;
  sessionId: string | null;
}

/** Runs the turn in this process, owning the data directory for its duration. */
export class LocalTurnDriver implements TurnDriver {
  private core: SidecarCore | null = null;
  private turnId: string | null = null;
  private sessionId: string | null = null;
  private readonly done = new Deferred<TurnStatus>();

  constructor(private readonly options: LocalRunOptions) {}

  async start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }> {
    try {
      this.core = openSidecarCore({ dataDir: this.options.dataDir, command: 'cairn run' });
    } catch (error) {
      if (error instanceof CairnError && error.code === 'data_dir_locked') {
        throw new CairnError(
          'data_dir_locked',
          `${error.message}\nIf that is a running \`cairn serve\`, submit to it instead: cairn run --server http://127.0.0.1:PORT … (with CAIRN_TOKEN set).`,
        );
      }
      throw error;
    }
    const { store, runtime } = this.core;
    const project = openProject(store, path.resolve(this.options.workspace));
    let sessionId = this.options.sessionId;
    if (sessionId) {
      const session = store.sessions.get(sessionId);
      if (!session) throw notFound('Session', sessionId);
      if (session.project_id !== project.id) {
        throw new CairnError(
          'bad_request',
          `Session ${sessionId} belongs to another project, not ${project.path}.`,
        );
      }
    } else {
      sessionId = store.sessions.create({
        projectId: project.id,
        title: titleFromPrompt(this.options.prompt),
      }).id;
    }
    const sid = sessionId;
    this.sessionId = sid;
    // Subscribe before starting, so turn.started is seen too; events of other turns are ignored.
    store.events.subscribe((event) => {
      if (event.session_id !== sid || this.turnId === null || event.turn_id !== this.turnId) return;
      onEvent(event);
      const status = TERMINAL_STATUS[event.type];
      if (status) this.done.resolve(status);
    });
    const pending: CairnEvent[] = [];
    const early = store.events.subscribe((event) => {
      if (event.session_id === sid && this.turnId === null) pending.push(event);
    });
    const { turn } = runtime.startTurn(sid, this.options.prompt, randomUUID());
    early();
    this.turnId = turn.id;
    for (const event of pending) if (event.turn_id === turn.id) onEvent(event);
    return { sessionId: sid, turnId: turn.id };
  }

  finished(): Promise<TurnStatus> {
    return this.done.promise;
  }

  async answer(questionId: string, answer: string): Promise<void> {
    this.core?.runtime.answerQuestion(questionId, answer);
  }

  async replyInput(kernel: string, requestId: string, value: string): Promise<void> {
    if (!this.core || !this.sessionId) return;
    if (!this.core.kernels) {
      throw new CairnError(
        'conversation_only',
        'This Cairn runs conversation-only: it has no Python kernels.',
      );
    }
    this.core.kernels.reply(this.sessionId, kernel, requestId, value);
  }

  async cancel(): Promise<void> {
    if (this.core && this.turnId) await this.core.runtime.cancelTurn(this.turnId);
  }

  async close(): Promise<void> {
    await this.core?.close();
    this.core = null;
  }
}
