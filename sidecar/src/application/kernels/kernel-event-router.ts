import type { KernelEvent, RichOutput, SavedArtifact } from '../../kernels/kernel-types';
import type { Logger } from '../../log/logger';
import type { KernelArtifact, KernelRichOutput, NewEvent } from '../../protocol';
import type { Store } from '../../store/store';

/** Who asked for an execution: the agent (its turn and tool call) or the user (neither). */
export interface ExecutionOrigin {
  turnId: string | null;
  toolCallId: string | null;
}

const USER: ExecutionOrigin = { turnId: null, toolCallId: null };

/**
 * Puts one session's kernel events on its journal, each with the turn it belongs to, and records the
 * artifacts they name so they can be fetched by id.
 *
 * The manager runs a kernel's executions one at a time in the order they were asked for, and each begins
 * with `kernel.execution_started`; so the origins given to `expect` just before each `execute` call, taken
 * in order per kernel, tell whose each execution is.
 */
export class KernelEventRouter {
  private readonly pending = new Map<string, ExecutionOrigin[]>();
  private readonly origins = new Map<string, ExecutionOrigin>();
  /** The execution each kernel runs now: a start or death between cells belongs to nobody's turn. */
  private readonly running = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly logger: Logger,
  ) {}

  /** Call right before `execute` on that kernel. */
  expect(kernel: string, origin: ExecutionOrigin): void {
    const queue = this.pending.get(kernel) ?? [];
    queue.push(origin);
    this.pending.set(kernel, queue);
  }

  handle(event: KernelEvent): void {
    const origin = this.originOf(event);
    try {
      this.recordArtifacts(event);
      this.store.events.append(this.sessionId, toJournal(event, origin));
    } catch (error) {
      // The session was deleted while its kernel still talked: nothing to keep.
      this.logger.debug('kernel event not journaled', { type: event.type, error: String(error) });
    }
    if ((event.type === 'kernel.result' || event.type === 'kernel.error') && event.execution_id) {
      this.origins.delete(event.execution_id);
      if (this.running.get(event.kernel) === event.execution_id) this.running.delete(event.kernel);
    }
  }

  private originOf(event: KernelEvent): ExecutionOrigin {
    if (event.type === 'kernel.execution_started') {
      const origin = this.pending.get(event.kernel)?.shift() ?? USER;
      this.origins.set(event.execution_id, origin);
      this.running.set(event.kernel, event.execution_id);
      return origin;
    }
    const executionId =
      'execution_id' in event && event.execution_id ? event.execution_id : this.running.get(event.kernel);
    return (executionId && this.origins.get(executionId)) || USER;
  }

  private recordArtifacts(event: KernelEvent): void {
    const artifacts =
      event.type === 'kernel.display'
        ? event.artifacts
        : event.type === 'kernel.result'
          ? (event.return_value?.artifacts ?? [])
          : [];
    for (const artifact of artifacts) {
      this.store.artifacts.add({
        id: artifact.id,
        sessionId: this.sessionId,
        kernel: event.kernel,
        executionId: 'execution_id' in event ? event.execution_id : null,
        mime: artifact.mime,
        bytes: artifact.bytes,
        path: artifact.path,
      });
    }
  }
}

/** The wire form of an artifact: its id, never the path on the server. */
function wireArtifact(artifact: SavedArtifact): KernelArtifact {
  return { id: artifact.id, mime: artifact.mime, bytes: artifact.bytes };
}

function wireOutput(output: RichOutput): KernelRichOutput {
  return { text: output.text, artifacts: output.artifacts.map(wireArtifact) };
}

/** The journal's form of a manager event: the wire fields, named one by one so nothing else slips in. */
function toJournal(event: KernelEvent, origin: ExecutionOrigin): NewEvent {
  const { kernel } = event;
  const turn_id = origin.turnId;
  switch (event.type) {
    case 'kernel.started': {
      const { pid, server, python, implementation, ipython, reason, warm } = event;
      return {
        type: event.type,
        turn_id,
        kernel,
        pid,
        server,
        python,
        implementation,
        ipython,
        reason,
        warm,
      };
    }
    case 'kernel.execution_started':
      return {
        type: event.type,
        turn_id,
        kernel,
        execution_id: event.execution_id,
        code: event.code,
        tool_call_id: origin.toolCallId,
      };
    case 'kernel.stream': {
      const { execution_id, stream, text } = event;
      return { type: event.type, turn_id, kernel, execution_id, stream, text };
    }
    case 'kernel.display':
      return { type: event.type, turn_id, kernel, execution_id: event.execution_id, ...wireOutput(event) };
    case 'kernel.input_request': {
      const { execution_id, request_id, prompt, password } = event;
      return { type: event.type, turn_id, kernel, execution_id, request_id, prompt, password };
    }
    case 'kernel.result': {
      const { execution_id, success, error, execution_time_ms, limit, state_lost } = event;
      return {
        type: event.type,
        turn_id,
        kernel,
        execution_id,
        success,
        return_value: event.return_value ? wireOutput(event.return_value) : null,
        error,
        execution_time_ms,
        limit,
        state_lost,
      };
    }
    case 'kernel.error': {
      const { execution_id, code, message } = event;
      return { type: event.type, turn_id, kernel, execution_id, code, message };
    }
    case 'kernel.died': {
      const { execution_id, exit_code, signal, stderr_tail, message } = event;
      return { type: event.type, turn_id, kernel, execution_id, exit_code, signal, stderr_tail, message };
    }
  }
}
