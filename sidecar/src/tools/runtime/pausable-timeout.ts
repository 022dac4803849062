/**
 * The runner's own `timeout` for a call, which stops while the call waits for the user (an MCP server's
 * form): time the user spends answering counts toward no limit. Pauses nest; `clear` ends it for good.
 */
export class PausableTimeout {
  private timer: NodeJS.Timeout | null = null;
  private dueAt = 0;
  private pauses = 0;
  private cleared = false;

  constructor(
    private remainingMs: number,
    private readonly fire: () => void,
  ) {
    this.start();
  }

  pause(): void {
    if (this.pauses++ > 0 || this.cleared || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.remainingMs = Math.max(0, this.dueAt - Date.now());
  }

  /** The wait is over: the clock runs on from where it stopped. */
  resume(): void {
    if (this.pauses === 0 || --this.pauses > 0) return;
    this.start();
  }

  clear(): void {
    this.cleared = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private start(): void {
    if (this.cleared) return;
    this.dueAt = Date.now() + this.remainingMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.cleared = true;
      this.fire();
    }, this.remainingMs);
  }
}
