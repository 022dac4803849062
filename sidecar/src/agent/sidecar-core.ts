import fs from 'node:fs';
import path from 'node:path';
import { envFlag, envInt } from '../config/env-flags';
import { createFileLogger, type Logger } from '../log/logger';
import { createKeychain, type Keychain } from '../secrets/keychain';
import { registerSecretsFromEnv } from '../secrets/known-secrets';
import { acquireDataDirLock, type DataDirLock } from '../store/data-dir-lock';
import { Store } from '../store/store';
import { AgentRuntime } from './agent-runtime';
import { KernelProviderService } from './kernel-provider-service';
import type { KernelService } from './kernel-service';
import { createKernelService } from './kernel-setup';
import { McpConfigService } from './mcp-config-service';
import { McpSessionService } from './mcp-session-service';

export interface SidecarCoreOptions {
  dataDir: string;
  /** What holds the data directory, shown to a second process ("cairn serve"). */
  command: string;
  env?: NodeJS.ProcessEnv;
  keychain?: Keychain;
  /** Also write log lines to stderr. */
  logToStderr?: boolean;
}

/** Everything a Cairn process needs besides its front door (HTTP server or CLI). */
export interface SidecarCore {
  dataDir: string;
  store: Store;
  runtime: AgentRuntime;
  keychain: Keychain;
  logger: Logger;
  conversationOnly: boolean;
  /** Python kernels; null in conversation-only mode. */
  kernels: KernelService | null;
  /** Where kernels start (this machine or a Jupyter Server); null in conversation-only mode. */
  kernelProvider: KernelProviderService | null;
  /** The sessions' MCP servers; null in conversation-only mode. */
  mcp: McpSessionService | null;
  /** MCP server configurations; null in conversation-only mode. */
  mcpConfig: McpConfigService | null;
  close(): Promise<void>;
}

/**
 * Takes the data directory (one process at a time), opens the store (migrating it), and turns
 * whatever a crash left running into `interrupted`.
 */
export function openSidecarCore(options: SidecarCoreOptions): SidecarCore {
  const env = options.env ?? process.env;
  registerSecretsFromEnv(env);
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const lock: DataDirLock = acquireDataDirLock(options.dataDir, { command: options.command });
  let store: Store | null = null;
  try {
    const logger = createFileLogger({
      dir: path.join(options.dataDir, 'logs'),
      level: env.CAIRN_LOG_LEVEL === 'debug' ? 'debug' : 'info',
      alsoStderr: options.logToStderr ?? false,
    });
    store = Store.open(options.dataDir, {
      onBackup: (file) => logger.info('database copied aside before migrating', { file }),
    });
    const keychain = options.keychain ?? createKeychain();
    const conversationOnly = envFlag(env.CAIRN_CONVERSATION_ONLY);
    const kernelProvider = conversationOnly ? null : new KernelProviderService({ store, keychain, env });
    const kernels = kernelProvider
      ? createKernelService({ store, dataDir: options.dataDir, env, logger, provider: kernelProvider })
      : null;
    const mcp = conversationOnly
      ? null
      : new McpSessionService({
          store,
          keychain,
          dataDir: options.dataDir,
          env,
          logger: logger.child({ component: 'mcp' }),
        });
    const mcpConfig = conversationOnly ? null : new McpConfigService(store, keychain);
    const runtime = new AgentRuntime({
      store,
      dataDir: options.dataDir,
      keychain,
      logger,
      conversationOnly,
      kernels,
      mcp,
      env,
      modelMaxRetries: envInt(env.CAIRN_MODEL_MAX_RETRIES, 2),
      maxContinuations: envInt(env.CAIRN_MAX_CONTINUATIONS, 5),
    });
    const interrupted = runtime.recoverInterrupted();
    if (interrupted > 0) logger.warn('turns interrupted by an earlier stop', { count: interrupted });
    const opened = store;
    return {
      dataDir: options.dataDir,
      store: opened,
      runtime,
      keychain,
      logger,
      conversationOnly,
      kernels,
      kernelProvider,
      mcp,
      mcpConfig,
      async close() {
        await runtime.shutdown();
        opened.close();
        lock.release();
      },
    };
  } catch (error) {
    store?.close();
    lock.release();
    throw error;
  }
}
