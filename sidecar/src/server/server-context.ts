import type { AgentRuntime } from '../agent/agent-runtime';
import type { KernelProviderService } from '../agent/kernel-provider-service';
import type { KernelService } from '../agent/kernel-service';
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
  keychain: Keychain;
  logger: Logger;
  version: string;
  dataDir: string;
  conversationOnly: boolean;
  mode: 'local' | 'remote';
  env: NodeJS.ProcessEnv;
}
