import { redact } from '../../log/redact';
import { MCP_LIMITS, type McpLogLevel } from '../../protocol';

/** How many of a server's log messages reach the journal: a flood must not swamp it or the panel. */
export const MCP_LOG_LIMITS = {
  /** In any one second, per connection; those over it are counted, and the count noted once the second ends. */
  perSecond: 10,
  /** In all, per connection (it starts again with the server); then one note, and no more. */
  perConnection: 1_000,
};

/**
 * Any JSON as it may go on the journal: credentials redacted (a server started with a secret of the
 * keychain may log it), and over MCP_LIMITS.logDataChars as JSON, the start as text, marked.
 */
export function boundLogData(data: unknown): unknown {
  const json = JSON.stringify(data) ?? 'null';
  const safe = redact(json);
  if (safe.length > MCP_LIMITS.logDataChars)
    return `${safe.slice(0, MCP_LIMITS.logDataChars)}… [Cairn: cut; ${safe.length} characters in all]`;
  if (safe === json) return data;
  try {
    return JSON.parse(safe);
  } catch {
    return safe;
  }
}

/**
 * One connection's log messages on their way to the journal: at most `perSecond` a second and
 * `perConnection` in all, their data bounded. What is left out is said, by a `warning` of Cairn's own
 * (text starting "[Cairn:"), never silently.
 */
export class McpLogRelay {
  private windowStart = 0;
  private inWindow = 0;
  private dropped = 0;
  private total = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly append: (level: McpLogLevel, data: unknown) => void,
    private readonly limits = MCP_LOG_LIMITS,
  ) {}

  log(level: McpLogLevel, data: unknown): void {
    if (this.closed || this.total > this.limits.perConnection) return;
    if (this.total === this.limits.perConnection) {
      this.total++;
      this.flushDropped();
      this.append(
        'warning',
        `[Cairn: this server has sent ${this.limits.perConnection} log messages; further ones are not shown until it is started again]`,
      );
      return;
    }
    const now = Date.now();
    if (now - this.windowStart >= 1_000) {
      this.flushDropped();
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (this.inWindow >= this.limits.perSecond) {
      this.dropped++;
      this.timer ??= setTimeout(
        () => {
          this.timer = null;
          this.flushDropped();
        },
        1_000 - (now - this.windowStart),
      );
      return;
    }
    this.inWindow++;
    this.total++;
    this.append(level, boundLogData(data));
  }

  /** The connection ended: a count still held back is noted now. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushDropped();
    this.closed = true;
  }

  private flushDropped(): void {
    if (this.dropped === 0 || this.closed) return;
    const n = this.dropped;
    this.dropped = 0;
    this.append(
      'warning',
      `[Cairn: ${n} log message${n === 1 ? '' : 's'} from this server left out: it sent more than ${this.limits.perSecond} a second]`,
    );
  }
}
