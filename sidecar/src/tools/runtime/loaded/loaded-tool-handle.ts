import type { LoadedTool } from '../../../protocol';
import { type Tool, type ToolContext, ToolError, type ToolResult } from '../../tool';
import { createLoadedTool, type LoadedToolSpec, type MethodInvocation } from './loaded-tool';
import { cancelledResult, StreamCollector, valueResult } from './method-result';
import { type ToolWorker, type WorkerEnd, WorkerGoneError, WorkerStoppedError } from './tool-worker';

/** A loaded tool as its session holds it. */
export interface LoadedToolHandle {
  /** The tool as the model and scripts call it: the envelope, `methods` set, `background: 'runner'`, `sideEffects: true`, `needsProject: true`. */
  readonly tool: Tool;
  /** Its state as the UI shows it; `tool_call_id` is the LoadTool call's. */
  info(): LoadedTool;
  /** Tells `listener` when the info changes (its worker crashed); returns the unsubscribe. */
  onChange(listener: (info: LoadedTool) => void): () => void;
  /** Stops the worker (its whole process tree) or releases a local module; its calls then fail. Idempotent. */
  stop(): Promise<void>;
}

export interface LoadedToolRecord extends LoadedToolSpec {
  toolCallId: string;
  loadedAt: Date;
  cancelGraceMs: number;
}

/**
 * A loaded tool and its worker: runs each call on the worker, turns the outcome into a result, and
 * remembers a crash (state `crashed`, never restarted: its calls fail with the crash's facts until the
 * tool is loaded again).
 */
export class WorkerLoadedToolHandle implements LoadedToolHandle {
  readonly tool: Tool;
  private state: LoadedTool['state'] = 'ready';
  private error: string | null = null;
  private stopped = false;
  private readonly listeners = new Set<(info: LoadedTool) => void>();

  constructor(
    private readonly worker: ToolWorker,
    private readonly record: LoadedToolRecord,
  ) {
    this.tool = createLoadedTool(record, (call, ctx) => this.invoke(call, ctx));
    worker.onEnd((end) => this.crashed(end));
  }

  info(): LoadedTool {
    const { description } = this.record;
    return {
      name: description.name,
      description: description.description,
      path: this.record.path,
      language: this.record.language,
      mode: this.record.mode,
      methods: description.methods.map(({ name, kind, description: text }) => ({
        name,
        kind,
        description: text,
      })),
      state: this.state,
      error: this.error,
      pid: this.worker.pid,
      loaded_at: this.record.loadedAt.toISOString(),
      tool_call_id: this.record.toolCallId,
    };
  }

  onChange(listener: (info: LoadedTool) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.worker.stop();
  }

  private async invoke(call: MethodInvocation, ctx: ToolContext): Promise<ToolResult> {
    const name = this.record.description.name;
    if (this.error !== null) throw new ToolError(this.error);
    if (this.stopped) throw new ToolError(this.stoppedMessage());
    const collector = call.method.kind === 'stream' ? new StreamCollector() : null;
    let outcome: Awaited<ReturnType<ToolWorker['client']['call']>>;
    try {
      outcome = await this.worker.client.call(
        {
          method: call.method.name,
          arguments: call.arguments,
          unionId: call.unionId,
          callId: ctx.toolCallId,
        },
        ctx.signal,
        (text) => {
          collector?.add(text);
          // One line per item, so items that carry no newline of their own do not run together.
          ctx.onOutput('stdout', text.endsWith('\n') ? text : `${text}\n`);
        },
      );
    } catch (err) {
      if (err instanceof WorkerGoneError) throw new ToolError(this.crashMessage(err.end));
      if (err instanceof WorkerStoppedError) throw new ToolError(this.stoppedMessage());
      throw err;
    }
    switch (outcome.status) {
      case 'completed':
        return collector ? collector.result(outcome.value) : valueResult(outcome.value);
      case 'failed':
        throw new ToolError(`${name}.${call.method.name} failed:\n${outcome.error}`);
      case 'cancelled':
        return cancelledResult(
          name,
          call.method.name,
          outcome.stopped,
          this.record.cancelGraceMs,
          collector ? collector.items : null,
        );
    }
  }

  private crashed(end: WorkerEnd): void {
    if (this.stopped || this.error !== null) return;
    this.state = 'crashed';
    this.error = this.crashMessage(end);
    const info = this.info();
    for (const listener of this.listeners) listener(info);
  }

  private crashMessage(end: WorkerEnd): string {
    const { description, path } = this.record;
    const output = end.output ? `Its last output:\n${end.output}\n` : '';
    return (
      `The loaded tool "${description.name}" crashed: its worker process (pid ${end.pid}) ${end.how}.\n` +
      `${output}It is not restarted: load it again with LoadTool (path "${path}") to use it.`
    );
  }

  private stoppedMessage(): string {
    const { description, path } = this.record;
    return `The loaded tool "${description.name}" was stopped; load it again with LoadTool (path "${path}") to use it.`;
  }
}
