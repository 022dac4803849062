/** Why a running call was stopped from outside its tool. */
export type StopKind =
  /** ToolControl cancel, the API's cancel, or the turn's cancel for a call the turn waits for. */
  | 'cancelled'
  /** Its `timeout` passed (a limit the runtime keeps). */
  | 'timeout'
  /** The call whose script started it was cancelled or ended. */
  | 'parent'
  /** Its session was deleted. */
  | 'session_closed'
  /** Cairn is stopping. */
  | 'shutdown';

/** The reason a stopped call's signal carries, so its outcome says what happened. */
export class CallStop extends Error {
  constructor(
    readonly kind: StopKind,
    message: string,
  ) {
    super(message);
    this.name = 'CallStop';
  }
}

/** A call the runtime is running now. */
export interface RunningCall {
  id: string;
  sessionId: string;
  turnId: string;
  name: string;
  input: unknown;
  parentId: string | null;
  background: boolean;
  controller: AbortController;
  /** Settles once the call has ended and its result is written. */
  done: Promise<unknown>;
}

/** The calls running now, across sessions, by id. */
export class RunningCalls {
  private readonly calls = new Map<string, RunningCall>();

  add(call: RunningCall): void {
    this.calls.set(call.id, call);
  }

  remove(id: string): void {
    this.calls.delete(id);
  }

  get(id: string): RunningCall | undefined {
    return this.calls.get(id);
  }

  inSession(sessionId: string): RunningCall[] {
    return [...this.calls.values()].filter((c) => c.sessionId === sessionId);
  }

  all(): RunningCall[] {
    return [...this.calls.values()];
  }

  /** The running calls whose scripts led to `parentId`'s child: the parent, its parent, and so on. */
  ancestry(parentId: string | null): RunningCall[] {
    const chain: RunningCall[] = [];
    for (let id = parentId; id !== null; ) {
      const call = this.calls.get(id);
      if (!call || chain.includes(call)) break;
      chain.push(call);
      id = call.parentId;
    }
    return chain;
  }

  /** Every running call started, directly or not, by the scripts of `id`. */
  descendantsOf(id: string): RunningCall[] {
    const found: RunningCall[] = [];
    const queue = [id];
    while (queue.length > 0) {
      const parent = queue.pop()!;
      for (const call of this.calls.values()) {
        if (call.parentId === parent) {
          found.push(call);
          queue.push(call.id);
        }
      }
    }
    return found;
  }
}
