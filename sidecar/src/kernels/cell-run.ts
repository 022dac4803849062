import type { MimeBundle, ResultMessage } from './driver-messages';
import { type ExitInfo, KernelExitedError } from './kernel-exit';
import type { KernelHandle } from './kernel-handle';
import type { KernelLimits, LimitHit, LimitKind } from './kernel-types';

/** What one cell came to. */
export interface CellOutcome {
  /** The driver's result; null when the process exited first. */
  result: ResultMessage | null;
  /** Set when the process exited during the cell (crash, or killed to stop it). */
  exit: ExitInfo | null;
  limit: LimitHit | null;
  /** What stopped the cell, when something did. */
  stoppedBy: 'limit' | 'interrupt' | 'cancel' | null;
  /** The cell did not stop within the grace period and the process was killed. */
  killed: boolean;
  /** The process was ended from outside the cell (a restart or a shutdown) while it ran. */
  endedBy: 'restart' | 'shutdown' | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  activeMs: number;
}

export interface CellRunHooks {
  onStream: (name: 'stdout' | 'stderr', text: string) => void;
  onDisplay: (data: MimeBundle) => void;
  onInputRequest: (request: { requestId: string; prompt: string; password: boolean }) => void;
}

/**
 * The most of each stream a result keeps (the start and the end: errors tend to come last), and the most
 * output of one execution sent live as stream events, which go to the journal and every client.
 */
export const MAX_STREAM_CHARS = 1_000_000;

/** The one stream event sent in place of output past the live limit. */
export const STREAM_LIMIT_NOTE = `\n[... more than ${MAX_STREAM_CHARS} characters of output: the rest is not shown live; the result keeps its start and end ...]\n`;

/** The longest delay setTimeout takes: a longer one (or Infinity) fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One execution on a kernel process, with its limits: an active-time clock that stops while an `input()`
 * waits, an idle timer per input request, and the escalation when something must stop the cell — an
 * interrupt (KeyboardInterrupt), then a kill after the grace period if the cell does not stop.
 */
export class CellRun {
  readonly done: Promise<CellOutcome>;
  private readonly startedAt = performance.now();
  private activeMs = 0;
  private activeSince: number | null = null;
  private activeTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  /** Per pending input() request, its idle timer (undefined when there is no idle limit). */
  private readonly inputTimers = new Map<string, NodeJS.Timeout | undefined>();
  private stoppedBy: CellOutcome['stoppedBy'] = null;
  private limit: LimitHit | null = null;
  private killed = false;
  private endedBy: CellOutcome['endedBy'] = null;
  private readonly stdout = new CappedText(MAX_STREAM_CHARS);
  private readonly stderr = new CappedText(MAX_STREAM_CHARS);
  /** Characters of both streams sent as events so far; past MAX_STREAM_CHARS only the result keeps them. */
  private streamedChars = 0;

  constructor(
    private readonly proc: KernelHandle,
    code: string,
    executionId: string,
    private readonly limits: KernelLimits,
    hooks: CellRunHooks,
    { signal, toolToken }: { signal?: AbortSignal; toolToken?: string } = {},
  ) {
    const onAbort = () => this.stop('cancel');
    signal?.addEventListener('abort', onAbort, { once: true });
    this.resumeClock();
    const execution = proc.execute(
      code,
      {
        onStream: (name, text) => {
          (name === 'stdout' ? this.stdout : this.stderr).push(text);
          this.forward(name, text, hooks);
        },
        onDisplay: hooks.onDisplay,
        onInputRequest: (request) => {
          this.startInputWait(request.requestId);
          hooks.onInputRequest(request);
        },
        toolToken,
      },
      executionId,
    );
    this.done = execution
      .then(
        (result) => ({ result, exit: null }),
        (err: unknown) => {
          if (err instanceof KernelExitedError) return { result: null, exit: err.exit };
          throw err;
        },
      )
      .then(({ result, exit }) => {
        this.pauseClock();
        this.clearTimers();
        signal?.removeEventListener('abort', onAbort);
        return {
          result,
          exit,
          limit: this.limit,
          stoppedBy: this.stoppedBy,
          killed: this.killed,
          endedBy: this.endedBy,
          stdout: this.stdout.toString(),
          stderr: this.stderr.toString(),
          wallMs: Math.round(performance.now() - this.startedAt),
          activeMs: Math.round(this.activeMs),
        };
      });
    if (signal?.aborted) onAbort();
  }

  get waitingInput(): boolean {
    return this.inputTimers.size > 0;
  }

  /** Passes an answer to a pending `input()`; false when no such request waits. */
  reply(requestId: string, value: string): boolean {
    if (!this.inputTimers.has(requestId)) return false;
    clearTimeout(this.inputTimers.get(requestId));
    this.inputTimers.delete(requestId);
    this.proc.reply(requestId, value);
    if (this.inputTimers.size === 0 && !this.stoppedBy) this.resumeClock();
    return true;
  }

  /** Stops the cell at the user's request (interrupt, then kill after the grace period). */
  interrupt(): void {
    this.stop('interrupt');
  }

  /** Notes that the process is about to be ended for a restart or a shutdown, so the outcome says so. */
  expectExit(cause: 'restart' | 'shutdown'): void {
    this.endedBy ??= cause;
    this.clearTimers();
  }

  /** Sends output as events up to the live limit, then the note once, then nothing. */
  private forward(name: 'stdout' | 'stderr', text: string, hooks: CellRunHooks): void {
    const room = MAX_STREAM_CHARS - this.streamedChars;
    if (room < 0) return;
    if (text.length <= room) {
      this.streamedChars += text.length;
      hooks.onStream(name, text);
      return;
    }
    // Not between the halves of a surrogate pair.
    const cut = room > 0 && isHighSurrogate(text.charCodeAt(room - 1)) ? room - 1 : room;
    if (cut > 0) hooks.onStream(name, text.slice(0, cut));
    this.streamedChars = MAX_STREAM_CHARS + 1;
    hooks.onStream(name, STREAM_LIMIT_NOTE);
  }

  private startInputWait(requestId: string): void {
    this.pauseClock();
    // No limit (Infinity) still needs an entry: it marks the request as waiting.
    const idle = this.limits.inputIdleMs;
    const fire = () => this.stop('limit', 'input_idle');
    this.inputTimers.set(
      requestId,
      Number.isFinite(idle) ? setTimeout(fire, Math.min(idle, MAX_TIMER_MS)) : undefined,
    );
  }

  private stop(cause: 'limit' | 'interrupt' | 'cancel', kind?: LimitKind): void {
    if (this.stoppedBy || this.endedBy || !this.proc.isAlive) return;
    this.stoppedBy = cause;
    if (kind) {
      this.limit = {
        kind,
        limitMs: kind === 'active_time' ? this.limits.activeMs : this.limits.inputIdleMs,
        action: 'interrupted',
      };
    }
    this.pauseClock();
    for (const timer of this.inputTimers.values()) clearTimeout(timer);
    this.inputTimers.clear();
    this.proc.interrupt();
    this.graceTimer = setTimeout(() => {
      // The cell ignored the interrupt (or caught it): only a kill stops it now.
      this.killed = true;
      if (this.limit) this.limit.action = 'killed_and_restarted';
      void this.proc.kill();
    }, this.limits.interruptGraceMs);
  }

  private resumeClock(): void {
    if (this.activeSince !== null) return;
    this.activeSince = performance.now();
    const remaining = Math.max(0, this.limits.activeMs - this.activeMs);
    if (remaining === Number.POSITIVE_INFINITY) return; // no limit: a background call without a timeout
    // Past the longest timer, wait in steps: pausing and resuming counts the time so far and sets the next.
    this.activeTimer =
      remaining > MAX_TIMER_MS
        ? setTimeout(() => {
            this.pauseClock();
            this.resumeClock();
          }, MAX_TIMER_MS)
        : setTimeout(() => this.stop('limit', 'active_time'), remaining);
  }

  private pauseClock(): void {
    if (this.activeSince === null) return;
    this.activeMs += performance.now() - this.activeSince;
    this.activeSince = null;
    clearTimeout(this.activeTimer);
  }

  private clearTimers(): void {
    clearTimeout(this.activeTimer);
    clearTimeout(this.graceTimer);
    for (const timer of this.inputTimers.values()) clearTimeout(timer);
    this.inputTimers.clear();
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Text capped to about `cap` characters: the first half and the latest half, with a note of the gap. */
class CappedText {
  private head = '';
  /** Chunks of the tail: joined only when read, so a long output is not copied again per chunk. */
  private tail: string[] = [];
  private tailLength = 0;
  private omitted = 0;

  constructor(private readonly cap: number) {}

  push(text: string): void {
    const headRoom = Math.ceil(this.cap / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
    }
    if (text === '') return;
    this.tail.push(text);
    this.tailLength += text.length;
    // Drop whole chunks that lie entirely before the last cap/2 characters; toString trims the rest.
    const keep = Math.floor(this.cap / 2);
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= keep) {
      const dropped = this.tail.shift()!;
      this.tailLength -= dropped.length;
      this.omitted += dropped.length;
    }
  }

  toString(): string {
    const keep = Math.floor(this.cap / 2);
    const joined = this.tail.join('');
    const extra = Math.max(0, joined.length - keep);
    const tail = joined.slice(extra);
    const omitted = this.omitted + extra;
    if (omitted === 0) return this.head + tail;
    return `${this.head}\n[... ${omitted} characters of output omitted ...]\n${tail}`;
  }
}
