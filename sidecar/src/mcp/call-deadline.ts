import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { redact } from '../log/redact';
import { MCP_LIMITS } from '../protocol/mcp';
import type { McpProgress } from './mcp-connection';

/**
 * A call that reports progress is alive: each notification restarts its timeout, up to this many times the
 * tool timeout in all (the specification asks for a limit whatever the progress, against a server stuck in
 * a loop that keeps reporting).
 */
export const PROGRESS_TIMEOUT_FACTOR = 10;

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * One call's timeout (null: none), restarted by its progress. `expire` gets the reason in words; `progress`
 * takes the SDK's notification and hands on a checked one.
 */
export class CallDeadline {
  /** The longest the call may run, progress or not (null: no limit). */
  readonly maxMs: number | null;
  private readonly started = Date.now();
  private progressed = false;
  private timer: NodeJS.Timeout | null = null;
  /** Time the user spent answering a form counts toward no limit; a form left unanswered counts. */
  private pauses = 0;
  private pausedAt = 0;
  private pausedMs = 0;
  private pauseCounts = false;
  private formTimedOut = false;
  private ended = false;

  constructor(
    private readonly timeoutMs: number | null,
    private readonly what: string,
    private readonly expire: (why: string) => void,
  ) {
    this.maxMs = timeoutMs === null ? null : timeoutMs * PROGRESS_TIMEOUT_FACTOR;
    this.arm();
  }

  /** A progress notification: the timeout starts again; null when it carries no usable number. */
  progress(p: Progress): McpProgress | null {
    this.progressed = true;
    this.arm();
    if (!Number.isFinite(p.progress)) return null;
    return {
      progress: p.progress,
      total: typeof p.total === 'number' && Number.isFinite(p.total) ? p.total : null,
      // Redacted as log lines are: a server may echo a credential it was started with.
      message:
        typeof p.message === 'string' ? redact(p.message).slice(0, MCP_LIMITS.progressMessageChars) : null,
    };
  }

  /** The call ended: no timer any more. */
  clear(): void {
    this.ended = true;
    this.disarm();
  }

  /** The call waits for the user (an elicitation): the clock stops until `resume`. */
  pause(): void {
    if (this.pauses++ > 0) return;
    this.pausedAt = Date.now();
    this.disarm();
  }

  /**
   * The wait ended: the call has its whole timeout again (as after progress). `unanswered`: the form timed
   * out, and its time counts toward the total limit (else a server re-asking after every timeout would keep
   * the call alive forever); time the user spent answering does not.
   */
  resume(unanswered = false): void {
    if (this.pauses === 0) return;
    if (unanswered) this.pauseCounts = this.formTimedOut = true;
    if (--this.pauses > 0) return;
    if (!this.pauseCounts) this.pausedMs += Date.now() - this.pausedAt;
    this.pauseCounts = false;
    this.arm();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    const { timeoutMs, maxMs } = this;
    if (timeoutMs === null || maxMs === null || this.ended || this.pauses > 0) return;
    this.disarm();
    const elapsed = () => Date.now() - this.started - this.pausedMs;
    const left = Math.max(0, Math.min(timeoutMs, maxMs - elapsed()));
    this.timer = setTimeout(() => {
      this.expire(
        this.formTimedOut && left < timeoutMs
          ? `${this.what} did not finish within ${secs(elapsed())} (forms it asked for and left unanswered count toward its limit of ${PROGRESS_TIMEOUT_FACTOR} times its ${secs(timeoutMs)} timeout); the call was cancelled`
          : this.progressed
            ? `${this.what} did not finish within ${secs(elapsed())} (its progress reports extend its ${secs(timeoutMs)} limit, up to ${PROGRESS_TIMEOUT_FACTOR} times); the call was cancelled`
            : `${this.what} did not answer within ${secs(timeoutMs)}; the call was cancelled`,
      );
    }, left);
  }
}
