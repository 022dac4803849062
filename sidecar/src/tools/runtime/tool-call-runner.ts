import { CairnError } from '../../errors';
import type { Logger } from '../../log/logger';
import type { ApprovalInfo, BackgroundReceipt, ToolCall } from '../../protocol';
import type { Store } from '../../store/store';
import { describeProcess, removeProcessRecord, writeProcessRecord } from '../process-record';
import { type ScriptAccess, type Tool, type ToolContext, ToolError } from '../tool';
import type { ToolCallFiles } from '../tool-call-files';
import { callElicit } from './call-elicit';
import { type Ended, failed, stopMessage, stopped } from './call-outcome';
import { CallOutput } from './call-output';
import { type CallPermission, decideCall } from './call-permission';
import { type CallPlan, planCall } from './call-plan';
import type { CallOutcome, CallRequest, UserQuestions } from './call-request';
import { describeInput } from './describe-input';
import { PausableTimeout } from './pausable-timeout';
import { CallStop, type RunningCall, RunningCalls, type StopKind } from './running-calls';
import type { ScriptTokens } from './script-tokens';

export interface ToolCallRunnerDeps {
  store: Store;
  files: ToolCallFiles;
  questions: UserQuestions;
  tokens: ScriptTokens;
  /** How a script holding `token` reaches the runtime; null when no endpoint runs. */
  scriptAccess: (token: string) => Promise<ScriptAccess | null>;
  logger: Logger;
  /** Told once a call has ended and its result is written. */
  onEnded?: (call: ToolCall) => void;
}

/**
 * The one scheduler of tool calls, for the model and for scripts alike: it records the call, asks for
 * approval, runs the tool (waited for, or in the background after a receipt), writes its files and events,
 * and keeps every running call so it can be watched, cancelled, and its scripts' calls cancelled with it.
 */
export class ToolCallRunner {
  readonly running = new RunningCalls();
  /** The last permission decision started: the next waits for it. */
  private decided: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ToolCallRunnerDeps) {}

  async run(request: CallRequest): Promise<CallOutcome> {
    const { store, files } = this.deps;
    const tool = request.tools.find((t) => t.name === request.name);
    const plan: CallPlan | null = tool ? planCall(tool, request.input) : null;
    const usable = tool !== undefined && plan !== null && plan.error === null;
    const privileged = usable ? (tool.privileged?.(plan.input) ?? null) : null;
    // Decided one after another, so calls started together are recorded in the order they were made.
    const deciding = this.decided.then(() =>
      usable ? decideCall(store, request, tool, plan.input, privileged) : null,
    );
    this.decided = deciding.then(
      () => undefined,
      () => undefined,
    );
    const permission: CallPermission | null = await deciding;
    const needsApproval = permission?.decision === 'ask';
    const status = needsApproval ? 'waiting_approval' : 'running';
    const background = plan?.background ?? false;
    const call = store.toolCalls.create({
      sessionId: request.sessionId,
      turnId: request.turnId,
      toolUseId: request.toolUseId,
      name: request.name,
      input: request.input,
      status,
      parentToolCallId: request.parentCallId,
      background,
    });
    files.writeStatus(call);
    store.events.append(request.sessionId, {
      type: 'tool.started',
      turn_id: request.turnId,
      tool_call_id: call.id,
      tool_use_id: request.toolUseId,
      name: request.name,
      input: request.input,
      status,
      parent_tool_call_id: request.parentCallId,
      background,
    });
    const started = performance.now();
    if (!usable) {
      const names = request.tools.map((t) => t.name).join(', ') || 'none';
      const content = tool
        ? `Invalid input for ${tool.name}: ${plan!.error}`
        : `There is no tool named ${request.name}. Tools: ${names}.`;
      return this.finish(
        call,
        { status: 'failed', isError: true, content, exitCode: null, meta: {} },
        started,
      );
    }
    if (permission?.decision === 'deny') {
      const refused = {
        status: 'denied' as const,
        isError: true,
        content: permission.content,
        exitCode: null,
      };
      return this.finish(call, { ...refused, meta: { refused_by: 'permissions' } }, started);
    }

    const controller = new AbortController();
    // A waited call stops with what it is waited by; a background one only until its receipt is out.
    const follow = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) follow();
    else request.signal.addEventListener('abort', follow, { once: true });
    let released = false;
    let markStarted: () => void = () => undefined;
    const startedRunning = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const running: RunningCall = {
      id: call.id,
      sessionId: request.sessionId,
      turnId: request.turnId,
      name: tool.name,
      input: plan!.input,
      parentId: request.parentCallId,
      background,
      controller,
      done: Promise.resolve(),
    };
    this.running.add(running);
    // Called only once the tool really starts: a call denied, refused or cancelled before that ends first,
    // and its outcome, not a receipt, is what the caller gets.
    const approval = permission?.decision === 'ask' ? permission.info : null;
    const work = this.execute(request, tool, plan!, call.id, controller, approval, () => {
      if (background) {
        request.signal.removeEventListener('abort', follow);
        released = true;
      }
      markStarted();
    })
      .then((ended) => this.finish(call, ended, started))
      .finally(() => {
        if (!released) request.signal.removeEventListener('abort', follow);
        this.running.remove(call.id);
      });
    running.done = work.catch(() => undefined);
    if (!background) return work;
    const first = await Promise.race([work, startedRunning.then(() => null)]);
    if (first) return first;
    const receipt: BackgroundReceipt = {
      call_id: call.id,
      status: 'running',
      result_dir: files.callDir(request.sessionId, call.id),
    };
    return {
      callId: call.id,
      status: 'running',
      content: JSON.stringify(receipt),
      isError: false,
      resultDir: receipt.result_dir,
      resultFile: null,
      exitCode: null,
      meta: {},
      background: true,
    };
  }

  /**
   * Stops a running call and every call its scripts started; resolves once they have ended. False when
   * the call is not running (it ended already, or never ran here).
   */
  async cancel(callId: string, kind: StopKind = 'cancelled', message?: string): Promise<boolean> {
    const call = this.running.get(callId);
    if (!call) return false;
    const descendants = this.running.descendantsOf(callId);
    for (const child of descendants) {
      this.deps.tokens.revoke(child.id);
      child.controller.abort(new CallStop('parent', `Cancelled with the call that started it (${callId}).`));
    }
    this.deps.tokens.revoke(callId);
    call.controller.abort(new CallStop(kind, message ?? stopMessage(kind)));
    await Promise.all([call.done, ...descendants.map((c) => c.done)]);
    return true;
  }

  /** Stops every running call of a session (it is deleted) or of all sessions (Cairn stops). */
  async stopAll(sessionId: string | null, kind: StopKind): Promise<number> {
    const calls = sessionId === null ? this.running.all() : this.running.inSession(sessionId);
    await Promise.all(calls.map((c) => this.cancel(c.id, kind)));
    return calls.length;
  }

  private async execute(
    request: CallRequest,
    tool: Tool,
    plan: CallPlan,
    callId: string,
    controller: AbortController,
    /** Whether the user is asked first, and why. */
    approval: ApprovalInfo | null,
    onStarted: () => void,
  ): Promise<Ended> {
    const { store, files, questions, tokens } = this.deps;
    const signal = controller.signal;
    const parsed = tool.inputSchema.safeParse(plan.input);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
        .join('; ');
      return failed(`Invalid input for ${tool.name}: ${issues}`);
    }
    const callDir = files.callDir(request.sessionId, callId);
    // The process a tool starts is recorded while it runs, so a crash does not leave it running forever.
    const recordFile = files.processRecordPath(request.sessionId, callId);
    let recorded = false;
    const output = new CallOutput(store, {
      sessionId: request.sessionId,
      turnId: request.turnId,
      callId,
      callDir,
    });
    const detached = request.parentCallId !== null;
    let timer: PausableTimeout | null = null;
    try {
      if (approval) {
        const parent = request.parentCallId ? ` (from a script of call ${request.parentCallId})` : '';
        const answer = await questions.ask(
          {
            sessionId: request.sessionId,
            turnId: request.turnId,
            toolCallId: callId,
            kind: 'approval',
            question: `Allow ${tool.name}${parent}? ${approval.reason} ${describeInput(plan.input)}`,
            options: ['allow', 'deny'],
            tool: { name: tool.name, input: plan.input },
            permission: approval,
          },
          signal,
          { detached },
        );
        if (answer !== 'allow') {
          return {
            status: 'denied',
            isError: true,
            content: 'The user denied this tool call. Do not retry it as is.',
            exitCode: null,
            meta: {},
          };
        }
        // A deny rule saved while the call waited still refuses it: an approval answers the question asked.
        const now = await decideCall(store, request, tool, plan.input, null);
        if (now.decision === 'deny') {
          return { status: 'denied', isError: true, content: now.content, exitCode: null, meta: {} };
        }
        store.toolCalls.setStatus(callId, 'running');
        files.writeStatus(store.toolCalls.get(callId)!);
        store.events.append(request.sessionId, {
          type: 'tool.running',
          turn_id: request.turnId,
          tool_call_id: callId,
        });
      }
      // Time waiting for the user counts toward no limit: the runner's starts now.
      if (plan.timeoutMs !== null) {
        const seconds = plan.timeoutMs / 1000;
        timer = new PausableTimeout(plan.timeoutMs, () =>
          controller.abort(new CallStop('timeout', `Timed out after ${seconds} s; the call was stopped.`)),
        );
      }
      let scriptAccess: ScriptAccess | null = null;
      if (tool.scripts) {
        const token = tokens.mint({ sessionId: request.sessionId, callId });
        scriptAccess = await this.deps.scriptAccess(token);
        if (!scriptAccess) tokens.revoke(callId);
      }
      onStarted();
      const ctx: ToolContext = {
        projectRoot: request.projectRoot,
        sessionId: request.sessionId,
        turnId: request.turnId,
        toolCallId: callId,
        sessionResultsDir: files.sessionResultsDir(request.sessionId),
        inheritedResultsDirs: this.inheritedResultsDirs(request.sessionId),
        callDir,
        replacedTextDir: files.replacedTextDir(request.sessionId),
        signal,
        background: plan.background,
        scriptAccess,
        sandbox: request.sandbox ? await request.sandbox() : null,
        ancestors: this.running.ancestry(request.parentCallId).map((c) => ({ name: c.name, input: c.input })),
        onProcessStarted: (pid) => {
          recorded = this.recordProcess(recordFile, pid) || recorded;
        },
        onOutput: (stream, text) => output.write(stream, text),
        writePiece: (text) => output.writePiece(text),
        onProgress: (progress) => output.progress(progress),
        ask: (question, options) =>
          questions.ask(
            {
              sessionId: request.sessionId,
              turnId: request.turnId,
              toolCallId: callId,
              kind: 'question',
              question,
              options,
              tool: null,
            },
            signal,
            { detached },
          ),
        elicit: callElicit(
          questions,
          { sessionId: request.sessionId, turnId: request.turnId, toolCallId: callId },
          signal,
          { detached, timeout: timer },
        ),
      };
      const result = await tool.execute(parsed.data, ctx);
      const ended: Ended = {
        status: result.isError ? 'failed' : 'completed',
        isError: result.isError ?? false,
        content: result.content,
        exitCode: result.exitCode ?? null,
        meta: { ...(plan.method ? { method: plan.method } : {}), ...(result.meta ?? {}) },
      };
      return signal.aborted ? stopped(signal.reason, ended) : ended;
    } catch (error) {
      if (signal.aborted) return stopped(signal.reason, null);
      // A CairnError is a refusal with a message meant for whoever called (bad arguments, unknown id).
      if (error instanceof ToolError || error instanceof CairnError) return failed(error.message);
      this.deps.logger.error('tool crashed', { tool: tool.name, error });
      const message = error instanceof Error ? error.message : String(error);
      return failed(`${tool.name} failed unexpectedly: ${message}`);
    } finally {
      timer?.clear();
      output.close();
      if (recorded) this.forgetProcess(recordFile);
    }
  }

  /** Writes the result and the record, tells the journal, and lets go of what the call held. */
  private finish(call: ToolCall, ended: Ended, started: number): CallOutcome {
    const { store, files, tokens } = this.deps;
    tokens.revoke(call.id);
    // A script's waited calls have nobody left to answer once it ends; its background calls run on.
    for (const child of this.running.descendantsOf(call.id)) {
      if (!child.background && child.parentId === call.id) {
        child.controller.abort(new CallStop('parent', `The call that started it (${call.id}) ended.`));
      }
    }
    const durationMs = performance.now() - started;
    const resultFile = files.writeResult(call.session_id, call.id, ended.content);
    const meta = Object.keys(ended.meta).length > 0 ? ended.meta : null;
    const finished = store.toolCalls.finish(call.id, {
      status: ended.status,
      isError: ended.isError,
      preview: ended.content.slice(0, PREVIEW_CHARS),
      resultFile,
      durationMs,
      exitCode: ended.exitCode,
      meta,
    });
    files.writeStatus(finished);
    store.events.append(call.session_id, {
      type: 'tool.finished',
      turn_id: call.turn_id,
      tool_call_id: call.id,
      status: ended.status,
      is_error: ended.isError,
      duration_ms: Math.round(durationMs),
      preview: ended.content.slice(0, EVENT_PREVIEW_CHARS),
      exit_code: ended.exitCode,
      meta: metaForEvent(meta),
    });
    try {
      this.deps.onEnded?.(finished);
    } catch (error) {
      this.deps.logger.warn('a listener of ended tool calls failed', { error });
    }
    return {
      ...ended,
      callId: call.id,
      resultDir: files.callDir(call.session_id, call.id),
      resultFile,
      background: call.background,
    };
  }

  /** Notes the process a tool started in its call's folder; false (and a warning) if that fails. */
  /** A fork reads its parent's results: the stubs of the context it started from name files there. */
  private inheritedResultsDirs(sessionId: string): string[] {
    const parent = this.deps.store.sessions.forkOrigin(sessionId)?.parentSessionId;
    return parent ? [this.deps.files.sessionResultsDir(parent)] : [];
  }

  private recordProcess(file: string, pid: number): boolean {
    try {
      writeProcessRecord(file, describeProcess(pid));
      return true;
    } catch (error) {
      this.deps.logger.warn('could not record a tool process', { pid, error });
      return false;
    }
  }

  /** The process ended while the sidecar ran (normally, or killed on cancel or timeout): nothing to stop. */
  private forgetProcess(file: string): void {
    try {
      removeProcessRecord(file);
    } catch (error) {
      this.deps.logger.warn('could not remove a tool process record', { file, error });
    }
  }
}

const PREVIEW_CHARS = 2000;
const EVENT_PREVIEW_CHARS = 500;
/** A call's meta goes into its tool.finished event only this small: loaded tools choose their own meta. */
const EVENT_META_MAX_CHARS = 2000;

/** The meta a tool.finished event carries: the call's own when small, else none (the stored call has it). */
export function metaForEvent(meta: Record<string, unknown> | null): Record<string, unknown> | null {
  if (meta === null) return null;
  return JSON.stringify(meta).length <= EVENT_META_MAX_CHARS ? meta : null;
}
