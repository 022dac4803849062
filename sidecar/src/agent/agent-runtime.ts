import type { CompactionQueue } from '../context/compaction-queue';
import type { Compactor } from '../context/compactor';
import type { MemoryEdits } from '../context/memory-edits';
import { CairnError, notFound } from '../errors';
import { internalFailure } from '../log/internal-failure';
import type { Logger } from '../log/logger';
import type { Question, SessionMode, Turn, TurnKind } from '../protocol';
import type { Store } from '../store/store';
import { describeOutcome, stopRecordedProcess } from '../tools/process-record';
import { resolveProjectRoot } from '../tools/project-root';
import type { SessionToolRuntime } from '../tools/runtime/session-tool-runtime';
import type { ToolCallFiles } from '../tools/tool-call-files';
import { type CodeModeOptions, prepareCodeTurn } from './code-mode/code-mode-options';
import { ContextStep } from './context-step';
import { closeDanglingToolUses } from './history-repair';
import { createModelClient } from './model-client';
import type { ModelSettingsSource } from './model-settings';
import type { QuestionBroker } from './question-broker';
import { buildSystemPrompt } from './system-prompt';
import { TurnRunner } from './turn-runner';

export interface AgentRuntimeOptions {
  store: Store;
  /** Where each tool call's status and result are kept. */
  files: ToolCallFiles;
  logger: Logger;
  /** Where the log is, named in the message of a failure inside Cairn. */
  logDir?: string;
  /** A conversation-only deployment runs every session without its project folder. */
  conversationOnly: boolean;
  /**
   * Each session's tool runtime, owned by the application: a turn borrows it for its tools (built-in,
   * context, kernel, MCP, loaded) and runs every call through it.
   */
  toolRuntime(sessionId: string): SessionToolRuntime;
  /** Questions and approvals, shared with the tool runtime (a script's calls ask through it too). */
  broker: QuestionBroker;
  /** The model a turn talks to, resolved as the turn starts. */
  modelSettings: ModelSettingsSource;
  /** The SDK's retry count for model requests. */
  modelMaxRetries?: number;
  /** How many max_tokens recoveries a turn may make in a row. */
  maxContinuations?: number;
  /** Compaction, shared with "compact now"; the queue holds what the agent's Context tool asked for. */
  compactor: Compactor;
  compactionQueue: CompactionQueue;
  /** The agent's memory edits (runtime.selfref.memory), applied after each batch like the queue. */
  memoryEdits: MemoryEdits;
  /**
   * Called as a turn ends, before its end is recorded (its forks are cancelled there); the turn's `done`
   * waits for it.
   */
  turnEnding?: (sessionId: string, turnId: string) => Promise<void>;
  /**
   * Records the project's files as a turn starts and as it ends (after what it started has stopped), for its
   * changes and their undo. Never fails a turn: a recording that cannot be made is noted on the turn.
   */
  turnFiles?: TurnFilesRecorder;
  /** What a session in code mode needs (absent: such a session's turns fail saying code mode is unavailable). */
  codeMode?: CodeModeOptions;
}

type TurnOutcome = Parameters<TurnRunner['finish']>[1];

/** Work done between turns (`whileIdle`): what the session is doing, and what to say when a turn runs. */
export interface IdleWork {
  /** Completes "Session … ": "is being compacted". */
  activity: string;
  /** Why it cannot run while a turn does, and what to do. */
  turnRunning: string;
}

const COMPACTION: IdleWork = {
  activity: 'is being compacted',
  turnRunning:
    'A turn is running in this session; it compacts its own context when needed. Compact when it has ended, or cancel it.',
};

/** What the model is told of a revert before the next prompt. */
function revertNotice(reverted: { kind: TurnKind; prompt: string }): { type: 'text'; text: string } {
  const what =
    reverted.kind === 'revert'
      ? "undid an earlier restore of the project's files: they are back as they were before that restore."
      : `restored the project's files to how they were before the turn that began with "${clip(reverted.prompt)}": the file changes of that turn and every later one are undone.`;
  return {
    type: 'text',
    text: `[Cairn] Since your last turn the user ${what} Read files again before relying on edits made since.`,
  };
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** Records a turn's project files before it runs and as it ends. */
export interface TurnFilesRecorder {
  before(sessionId: string, turnId: string, projectRoot: string, signal: AbortSignal): Promise<void>;
  after(sessionId: string, turnId: string): Promise<void>;
}

interface RunningTurn {
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

/** Owns running turns: starts them (one per session), cancels them, recovers after a crash. */
export class AgentRuntime {
  readonly store: Store;
  readonly files: ToolCallFiles;
  readonly broker: QuestionBroker;
  private readonly runner: TurnRunner;
  private readonly running = new Map<string, RunningTurn>();
  /**
   * Sessions busy outside a turn ("compact now", a revert of files), with what they are doing: no turn
   * starts meanwhile.
   */
  private readonly busy = new Map<string, string>();

  constructor(private readonly options: AgentRuntimeOptions) {
    this.store = options.store;
    this.files = options.files;
    this.broker = options.broker;
    this.runner = new TurnRunner({
      store: options.store,
      broker: this.broker,
      context: new ContextStep({
        store: options.store,
        compactor: options.compactor,
        queue: options.compactionQueue,
        memory: options.memoryEdits,
        logger: options.logger,
      }),
      logger: options.logger,
      ...(options.logDir ? { logDir: options.logDir } : {}),
      maxContinuations: options.maxContinuations ?? 5,
    });
  }

  /** Starts a turn, or returns the one this request_id already started. */
  startTurn(sessionId: string, prompt: string, requestId: string): { turn: Turn; created: boolean } {
    const session = this.store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    const existing = this.store.turns.byRequestId(sessionId, requestId);
    if (existing) {
      if (existing.prompt !== prompt) {
        throw new CairnError(
          'request_id_conflict',
          `request_id ${requestId} was already used for a different prompt in this session; use a new request_id.`,
        );
      }
      return { turn: existing, created: false };
    }
    const busy = this.busy.get(sessionId);
    if (busy) {
      throw new CairnError(
        'conflict',
        `Session ${sessionId} ${busy}; start the turn when that has finished.`,
      );
    }
    const active = this.store.turns.running(sessionId);
    if (active) {
      throw new CairnError(
        'turn_running',
        `Session ${sessionId} is already running turn ${active.id}. Wait for it to finish or cancel it first.`,
      );
    }
    const turn = this.store.transaction(() => {
      // Files the user reverted since the last prompt: the model is told, or it would trust its earlier edits.
      const reverted = this.store.turnFiles.revertedSinceLastPrompt(sessionId);
      const created = this.store.turns.create(sessionId, requestId, prompt);
      this.store.messages.append({
        sessionId,
        turnId: created.id,
        role: 'user',
        content: [...reverted.map(revertNotice), { type: 'text', text: prompt }],
      });
      this.store.events.append(sessionId, {
        type: 'turn.started',
        turn_id: created.id,
        ordinal: created.ordinal,
        prompt,
      });
      this.store.sessions.touch(sessionId);
      return created;
    });
    const controller = new AbortController();
    const tools = this.options.toolRuntime(sessionId);
    const done = this.execute(tools, turn.id, session, controller.signal).finally(() => {
      this.running.delete(turn.id);
      this.options.codeMode?.answers.close(turn.id);
      tools.endTurn(turn.id);
      // What the agent queued belongs to its turn: a turn cancelled or failed after the batch takes it along.
      this.options.compactionQueue.take(sessionId);
      this.options.memoryEdits.drop(sessionId);
    });
    this.running.set(turn.id, { sessionId, controller, done });
    return { turn, created: true };
  }

  private async execute(
    tools: SessionToolRuntime,
    turnId: string,
    session: { project_id: string | null; mode: SessionMode },
    signal: AbortSignal,
  ): Promise<void> {
    const setupIds = { sessionId: tools.sessionId, turnId };
    const outcome = await this.outcome(tools, turnId, session, signal);
    // What the turn started (its forks) ends before the turn's end is recorded, however it ended.
    try {
      await this.options.turnEnding?.(setupIds.sessionId, turnId);
    } catch (error) {
      this.options.logger.warn('ending what a turn started failed', { turn: turnId, error });
    }
    await this.options.turnFiles?.after(setupIds.sessionId, turnId);
    this.runner.finish(setupIds, outcome);
  }

  private async outcome(
    tools: SessionToolRuntime,
    turnId: string,
    { project_id: projectId, mode }: { project_id: string | null; mode: SessionMode },
    signal: AbortSignal,
  ): Promise<TurnOutcome> {
    const sessionId = tools.sessionId;
    const setupIds = { sessionId, turnId };
    try {
      // A conversation-only server works without folders, even for sessions made before it became one.
      const project = projectId && !this.options.conversationOnly ? this.store.projects.get(projectId) : null;
      const projectRoot = project ? resolveProjectRoot(project.path) : null;
      if (projectRoot) await this.options.turnFiles?.before(sessionId, turnId, projectRoot, signal);
      // Kernel tools open the session's kernels here, which starts a warm one while the model thinks.
      await tools.beginTurn({ sessionId, turnId, projectRoot, signal });
      const settings = await this.options.modelSettings();
      const basePrompt = await buildSystemPrompt({
        projectRoot,
        toolNames: tools.modelTools().map((t) => t.name),
      });
      // A code-mode turn acts through Python in the kernel: its own prompt section and loop.
      const code =
        mode === 'code'
          ? await prepareCodeTurn(this.options.codeMode, {
              store: this.store,
              tools,
              turnId,
              projectRoot,
              systemPrompt: basePrompt,
            })
          : null;
      const client = createModelClient(settings, {
        maxRetries: this.options.modelMaxRetries ?? 2,
        logger: this.options.logger,
      });
      return await this.runner.run(
        {
          ...setupIds,
          projectRoot,
          tools,
          systemPrompt: code?.systemPrompt ?? basePrompt,
          settings,
          client,
          signal,
        },
        code?.strategy,
      );
    } catch (error) {
      if (signal.aborted) return { status: 'cancelled' };
      const failure =
        error instanceof CairnError
          ? error
          : internalFailure(this.options.logger, 'turn setup failed', error, {
              turn: turnId,
              logDir: this.options.logDir,
            });
      if (error instanceof CairnError) this.options.logger.warn('turn setup failed', { turn: turnId, error });
      return { status: 'failed', error: failure.toJSON() };
    }
  }

  /** Cancels a running turn and waits until its model stream and processes have stopped. */
  async cancelTurn(turnId: string): Promise<Turn> {
    const turn = this.store.turns.get(turnId);
    if (!turn) throw notFound('Turn', turnId);
    const running = this.running.get(turnId);
    if (running) {
      running.controller.abort(new CairnError('conflict', 'The turn was cancelled.'));
      await running.done;
    }
    return this.store.turns.get(turnId)!;
  }

  /** Resolves when the turn is no longer running in this process. */
  async waitForTurn(turnId: string): Promise<Turn | null> {
    await this.running.get(turnId)?.done;
    return this.store.turns.get(turnId);
  }

  isRunning(turnId: string): boolean {
    return this.running.has(turnId);
  }

  answerQuestion(questionId: string, answer: string, content?: Record<string, unknown>): Question {
    return this.broker.answer(questionId, answer, content);
  }

  /** Cancels the session's running turns (before the session or its project is deleted). */
  async cancelSessionTurns(sessionId: string): Promise<void> {
    const ids = [...this.running.entries()].filter(([, r]) => r.sessionId === sessionId).map(([id]) => id);
    await Promise.all(ids.map((id) => this.cancelTurn(id)));
  }

  /** Cancels every running turn and waits for their processes to stop. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancelTurn(id)));
  }

  /**
   * Runs `work` (a compaction, a revert of files) while no turn runs in the session, and starts none until
   * it ends: the version it writes, or the files it restores, must not move under a running turn. `what`
   * says what it does, for whoever has to wait.
   */
  async whileIdle<T>(sessionId: string, work: () => Promise<T>, what: IdleWork = COMPACTION): Promise<T> {
    if (this.isSessionRunning(sessionId) || this.store.turns.running(sessionId)) {
      throw new CairnError('turn_running', what.turnRunning);
    }
    const busy = this.busy.get(sessionId);
    if (busy) throw new CairnError('conflict', `This session ${busy}; wait for that to finish.`);
    this.busy.set(sessionId, what.activity);
    try {
      return await work();
    } finally {
      this.busy.delete(sessionId);
    }
  }

  /** Whether a turn of the session runs now (an MCP reset then waits for the next turn). */
  isSessionRunning(sessionId: string): boolean {
    return [...this.running.values()].some((r) => r.sessionId === sessionId);
  }

  /**
   * After a crash: turns left `running` become `interrupted`, their questions close, and every
   * tool call without a result gets one saying it was interrupted. Processes such a call started that
   * still run are killed when they are verified to be the recorded ones (see process-record.ts).
   */
  recoverInterrupted(): number {
    const note =
      'This tool call was interrupted: Cairn stopped before it finished, so its effects are unknown.';
    const turns = this.store.turns.allRunning();
    const calls = this.store.toolCalls.unfinished();
    // Processes a crash left running are stopped first, where they are verified to be the ones recorded.
    const results = new Map<string, string>();
    const byToolUse = new Map<string, string>();
    for (const call of calls) {
      const file = this.files.processRecordPath(call.session_id, call.id);
      const outcome = stopRecordedProcess(file);
      if (outcome.kind !== 'none' && outcome.kind !== 'gone') {
        this.options.logger.warn('process left by an interrupted tool call', {
          tool_call_id: call.id,
          outcome,
        });
      }
      const stopped = describeOutcome(outcome);
      results.set(call.id, stopped === '' ? note : `${note} ${stopped}`);
      byToolUse.set(call.tool_use_id, results.get(call.id)!);
    }
    this.store.transaction(() => {
      // A background call's script may have been waiting for an approval that no turn closes.
      this.broker.closeForToolCalls(
        calls.map((c) => c.id),
        'Cairn stopped while the call waited.',
      );
      for (const call of calls) {
        const result = results.get(call.id) ?? note;
        const finished = this.store.toolCalls.finish(call.id, {
          status: 'interrupted',
          isError: true,
          preview: result,
          resultFile: this.files.writeResult(call.session_id, call.id, result),
          durationMs: Date.now() - Date.parse(call.started_at),
        });
        this.files.writeStatus(finished);
        // Clients still showing the call as running learn that it ended.
        this.store.events.append(call.session_id, {
          type: 'tool.finished',
          turn_id: call.turn_id,
          tool_call_id: call.id,
          status: 'interrupted',
          is_error: true,
          duration_ms: finished.duration_ms ?? 0,
          preview: result.slice(0, 500),
          exit_code: null,
          meta: null,
        });
      }
      for (const turn of turns) {
        this.broker.closeForTurn(turn.session_id, turn.id, 'Cairn stopped while the turn was running.');
        // The model hears the same as the record says, including whether leftover processes were stopped.
        closeDanglingToolUses(this.store, turn.session_id, turn.id, (id) => byToolUse.get(id) ?? note);
        this.store.turns.finish(turn.id, 'interrupted', {
          code: 'interrupted',
          message: 'Cairn stopped while this turn was running. Send the prompt again to retry.',
        });
        this.store.events.append(turn.session_id, {
          type: 'turn.interrupted',
          turn_id: turn.id,
          reason: 'Cairn stopped while this turn was running.',
        });
      }
    });
    return turns.length;
  }
}
