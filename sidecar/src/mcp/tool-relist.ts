import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from '../log/logger';
import type { ResolvedMcpServer } from './mcp-connection';
import { listAllTools, type McpToolDef } from './tool-list';

/**
 * `list_changed` for one connection: lists the tools again as at connect (limits, allow/deny lists).
 * Notifications that come while one runs make one more; a list that fails keeps the one before, and one
 * that did not change tells nobody.
 */
export class ToolRelister {
  private running: Promise<void> | null = null;
  private again = false;

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
  ) {}

  request(): void {
    if (!this.conn.connected()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once a re-listing under way has ended. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
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
        if (JSON.stringify(tools) === JSON.stringify(this.conn.tools())) continue;
        this.log.info('mcp tools changed', { tools: tools.length });
        this.conn.changed(tools);
      } catch (err) {
        if (!this.conn.connected()) return;
        this.log.warn('mcp tools could not be listed again; the previous list stays', {
          error: this.conn.describe(err),
        });
      }
    } while (this.again);
  }
}
