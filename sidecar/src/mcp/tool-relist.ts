import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from '../log/logger';
import type { ResolvedMcpServer } from './mcp-connection';
import { listAllTools, type McpToolDef, sleep } from './tool-list';

/**
 * How often one connection lists its tools again. A server may announce `list_changed` as often as it
 * likes (one that changes its list at every tools/list would loop forever): each re-list can put an
 * `mcp.server` event on the journal, so they are spaced and counted.
 */
export const RELIST_LIMITS = {
  /** Between the starts of two re-lists; announcements meanwhile make one more, after the wait. */
  minIntervalMs: 1_000,
  /** In all, per connection (it starts again with the server); then one warning, and no more. */
  perConnection: 200,
  /** The longest a call's answer waits for the re-list its call set off (`settled`). */
  settleMs: 5_000,
};

/**
 * `list_changed` for one connection: lists the tools again as at connect (limits, allow/deny lists).
 * Announcements while a re-list runs or waits make one more; a list that fails keeps the one before, and
 * one that did not change tells nobody.
 */
export class ToolRelister {
  /** The re-list under way. */
  private current: Promise<void> | null = null;
  /** The next one, waiting for the current one and the interval. */
  private next: Promise<void> | null = null;
  private lastStart = Number.NEGATIVE_INFINITY;
  private rounds = 0;

  constructor(
    private readonly client: Client,
    private readonly server: ResolvedMcpServer,
    private readonly log: Logger,
    private readonly conn: {
      connected(): boolean;
      tools(): readonly McpToolDef[];
      changed(tools: McpToolDef[]): void;
      describe(err: unknown): string;
    },
    private readonly limits = RELIST_LIMITS,
  ) {}

  request(): void {
    if (!this.conn.connected() || this.next) return;
    if (this.rounds >= this.limits.perConnection) {
      if (this.rounds++ === this.limits.perConnection) {
        this.log.warn('mcp server announced tool changes too often; its list is no longer read again', {
          lists: this.limits.perConnection,
        });
      }
      return;
    }
    this.rounds++;
    const after = this.current ?? Promise.resolve();
    const next = after.then(async () => {
      const wait = this.lastStart + this.limits.minIntervalMs - Date.now();
      if (wait > 0) await sleep(wait);
      this.next = null;
      if (!this.conn.connected()) return;
      this.lastStart = Date.now();
      const round = this.listOnce();
      this.current = round;
      await round;
      if (this.current === round) this.current = null;
    });
    this.next = next;
  }

  /**
   * Resolves once the re-list under way or waiting when asked has ended (one round: a server that
   * announces again at every list cannot hold a caller), or when `signal` aborts, or after `settleMs`.
   */
  async settled(signal?: AbortSignal): Promise<void> {
    const round = this.next ?? this.current;
    if (!round || signal?.aborted) return;
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.limits.settleMs);
      const onAbort = () => resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
      stop = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
    });
    try {
      await Promise.race([round, stopped]);
    } finally {
      stop();
    }
  }

  private async listOnce(): Promise<void> {
    const { startupTimeoutMs } = this.server;
    const deadline = AbortSignal.timeout(startupTimeoutMs);
    try {
      const tools = await listAllTools(
        this.client,
        this.server,
        { signal: deadline, timeout: startupTimeoutMs + 1_000 },
        deadline,
      );
      if (!this.conn.connected()) return;
      if (JSON.stringify(tools) === JSON.stringify(this.conn.tools())) return;
      this.log.info('mcp tools changed', { tools: tools.length });
      this.conn.changed(tools);
    } catch (err) {
      if (!this.conn.connected()) return;
      this.log.warn('mcp tools could not be listed again; the previous list stays', {
        error: this.conn.describe(err),
      });
    }
  }
}
