import type { AgentRuntime } from '../agent/agent-runtime';
import type { KernelProviderService } from '../agent/kernel-provider-service';
import type { KernelService } from '../agent/kernel-service';
import type { McpConfigService } from '../agent/mcp-config-service';
import type { McpSessionService } from '../agent/mcp-session-service';
import type { Logger } from '../log/logger';
import type { Keychain } from '../secrets/keychain';
import type { Store } from '../store/store';

/** What route handlers reach: domain objects only, no HTTP details. */
export interface ServerContext {
  store: Store;
  runtime: AgentRuntime;
  /** Python kernels; null in conversation-only mode. */
  kernels: KernelService | null;
  /** Where kernels start; null in conversation-only mode. */
  kernelProvider: KernelProviderService | null;
  /** MCP server configurations and the sessions' connections; null in conversation-only mode. */
  mcpConfig: McpConfigService | null;
  mcp: McpSessionService | null;
  keychain: Keychain;
  logger: Logger;
  version: string;
  dataDir: string;
  conversationOnly: boolean;
  mode: 'local' | 'remote';
  env: NodeJS.ProcessEnv;
}
