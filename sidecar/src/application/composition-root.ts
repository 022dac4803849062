import path from 'node:path';
import { AgentRuntime } from '../agent/agent-runtime';
import type { CodeModeOptions } from '../agent/code-mode/code-mode-options';
import { finalAnswerTool } from '../agent/code-mode/final-answer-tool';
import { FinalAnswers } from '../agent/code-mode/final-answers';
import { forkTool } from '../agent/fork-tool';
import { QuestionBroker } from '../agent/question-broker';
import { secureDataDir } from '../config/data-dir-permissions';
import { envFlag, envInt } from '../config/env-flags';
import { realDir } from '../config/real-dir';
import { CompactionQueue } from '../context/compaction-queue';
import { Compactor } from '../context/compactor';
import { contextTool } from '../context/context-tool';
import { MemoryEdits } from '../context/memory-edits';
import { memoryTool } from '../context/memory-tool';
import { KernelManager } from '../kernels/kernel-manager';
import { DEFAULT_KERNEL } from '../kernels/session-kernels';
import { createFileLogger, type Logger } from '../log/logger';
import { createKeychain, type Keychain } from '../secrets/keychain';
import { registerSecretsFromEnv } from '../secrets/known-secrets';
import { acquireDataDirLock, type DataDirLock } from '../store/data-dir-lock';
import { Store } from '../store/store';
import { childEnv } from '../tools/child-env';
import { builtinToolSource } from '../tools/registry';
import { type LoadedToolRegistry, loadToolTool } from '../tools/runtime/loaded/load-tool';
import { ToolLoader } from '../tools/runtime/loaded/tool-loader';
import { SnapshotStores } from '../tools/snapshots/project-snapshots';
import { ToolCallFiles } from '../tools/tool-call-files';
import { combineToolSources, type ToolSource } from '../tools/tool-source';
import { compactorPorts } from './context/compactor-ports';
import { ContextService } from './context/context-service';
import { EventFeed } from './events/event-feed';
import { ExperienceService } from './experiences/experience-service';
import { FileHistoryService } from './file-history/file-history-service';
import { TurnFileRecorder } from './file-history/turn-file-recorder';
import { ForkService } from './forks/fork-service';
import { KernelProviderService } from './kernels/kernel-provider-service';
import { KernelService } from './kernels/kernel-service';
import { kernelManagerOptions, kernelPythonOverride } from './kernels/kernel-settings';
import { McpConfigService } from './mcp/mcp-config-service';
import { McpImportService } from './mcp/mcp-import-service';
import { McpOAuthService } from './mcp/mcp-oauth-service';
import { McpSessionService } from './mcp/mcp-session-service';
import { McpTestService } from './mcp/mcp-test-service';
import { ModelService } from './models/model-service';
import { requirePart } from './part';
import { PermissionRuleService } from './permissions/permission-rule-service';
import { ProjectPythonService } from './projects/project-python';
import { ProjectSandboxService } from './projects/project-sandbox';
import { ProjectService } from './projects/project-service';
import { QuestionService } from './questions/question-service';
import { SearchBackfillJob } from './search/search-backfill-job';
import { SearchService } from './search/search-service';
import { SessionBranching } from './sessions/session-branching';
import { SessionExporter } from './sessions/session-export';
import { SessionImporter } from './sessions/session-import';
import type { SessionResource } from './sessions/session-resources';
import { SessionService } from './sessions/session-service';
import { SidecarInfo } from './system/sidecar-info';
import { ToolRuntimeService } from './tools/tool-runtime-service';
import { ToolCallService } from './turns/tool-call-service';
import { TurnService } from './turns/turn-service';

export interface ApplicationOptions {
  dataDir: string;
  /** What holds the data directory, shown to a second process ("cairn serve"). */
  command: string;
  env?: NodeJS.ProcessEnv;
  keychain?: Keychain;
  /** Also write log lines to stderr. */
  logToStderr?: boolean;
}

/**
 * What the API, the command line and the desktop host's sidecar call: one service per area. The parts a
 * conversation-only deployment lacks (kernels, MCP) are functions that refuse there with
 * `conversation_only`.
 */
export interface Services {
  info: SidecarInfo;
  projects: ProjectService;
  sessions: SessionService;
  /** Branching a session at a turn; exporting one (Markdown, JSON) and importing a JSON export. */
  branching: SessionBranching;
  sessionExport: SessionExporter;
  sessionImport: SessionImporter;
  turns: TurnService;
  /** What turns changed in the project's files, and reverting it. */
  fileHistory: FileHistoryService;
  /** The forks turns spawn (the Fork tool's side); sessions list them. */
  forks: ForkService;
  toolCalls: ToolCallService;
  questions: QuestionService;
  permissions: PermissionRuleService;
  events: EventFeed;
  models: ModelService;
  context: ContextService;
  experiences: ExperienceService;
  /** Full-text search over sessions' messages, tool calls and kernel cells. */
  search: SearchService;
  toolRuntime: ToolRuntimeService;
  kernels(): KernelService;
  kernelProvider(): KernelProviderService;
  projectPython(): ProjectPythonService;
  mcpServers(): McpConfigService;
  mcpImport(): McpImportService;
  mcpTest(): McpTestService;
  mcpSessions(): McpSessionService;
  /** MCP servers' OAuth logins: authorize, the callback, log out. */
  mcpOAuth(): McpOAuthService;
}

/** A Cairn process's insides, built once: its services, and what tests and shutdown reach. */
export interface Application {
  dataDir: string;
  services: Services;
  logger: Logger;
  conversationOnly: boolean;
  /** For tests and inspection only: front doors go through `services`. */
  store: Store;
  keychain: Keychain;
  runtime: AgentRuntime;
  /** Cancels every turn and stops every kernel and MCP server; the data directory stays held. */
  stopWork(): Promise<void>;
  /** Stops work, closes the database and lets go of the data directory. */
  close(): Promise<void>;
}

/**
 * The composition root: takes the data directory (one process at a time), opens the store (migrating it),
 * builds every service once, and turns whatever a crash left running into `interrupted`.
 */
export function openApplication(options: ApplicationOptions): Application {
  const env = options.env ?? process.env;
  registerSecretsFromEnv(env);
  // Creates the folder (owner-only) when it is missing.
  const lock: DataDirLock = acquireDataDirLock(options.dataDir, { command: options.command });
  let store: Store | null = null;
  try {
    // Once the folder is ours, and before the logger and the store write in it.
    const permissions = secureDataDir(options.dataDir);
    const logger = createFileLogger({
      dir: path.join(options.dataDir, 'logs'),
      level: env.CAIRN_LOG_LEVEL === 'debug' ? 'debug' : 'info',
      alsoStderr: options.logToStderr ?? false,
    });
    if (permissions) {
      logger[permissions.level](permissions.message, permissions.fields);
      // The person at `cairn serve` / `cairn run` reads stderr (the desktop host keeps it for diagnostics).
      if (permissions.level === 'warn' && !options.logToStderr) {
        process.stderr.write(`cairn: ${permissions.message}\n`);
      }
    }
    store = Store.open(options.dataDir, {
      onBackup: (file) => logger.info('database copied aside before migrating', { file }),
    });
    const opened = store;
    const built = buildServices(opened, {
      dataDir: options.dataDir,
      env,
      logger,
      keychain: options.keychain ?? createKeychain(),
      conversationOnly: envFlag(env.CAIRN_CONVERSATION_ONLY),
    });
    const interrupted = built.runtime.recoverInterrupted();
    if (interrupted > 0) logger.warn('turns interrupted by an earlier stop', { count: interrupted });
    // A history from before search is indexed after start, not while the app waits to be ready.
    const indexing = new SearchBackfillJob(opened.searchBackfill, logger);
    indexing.start();
    let stopping: Promise<void> | null = null;
    const stopWork = () => {
      stopping ??= (async () => {
        indexing.stop();
        await built.runtime.shutdown();
        await built.services.toolRuntime.shutdown();
        await built.kernels?.shutdown();
        await built.mcpSessions?.shutdown();
      })();
      return stopping;
    };
    return {
      dataDir: options.dataDir,
      services: built.services,
      logger,
      conversationOnly: built.conversationOnly,
      store: opened,
      keychain: built.keychain,
      runtime: built.runtime,
      stopWork,
      async close() {
        await stopWork();
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

interface BuildOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  keychain: Keychain;
  conversationOnly: boolean;
}

/** Every service, each built once, wired to the ones it needs. */
function buildServices(store: Store, options: BuildOptions) {
  const { dataDir, env, logger, keychain, conversationOnly } = options;
  const files = new ToolCallFiles(dataDir);
  const models = new ModelService(store, keychain, env);

  // Kernels and MCP servers exist only where sessions have projects (not conversation-only).
  const kernelProvider = conversationOnly ? null : new KernelProviderService({ store, keychain, env });
  const projectPython = conversationOnly
    ? null
    : new ProjectPythonService({
        store,
        kernelEnv: childEnv(env),
        pythonOverride: kernelPythonOverride(env),
        sandboxFor: (projectId) => sandbox.forProject(projectId),
      });
  const kernelLogger = logger.child({ component: 'kernels' });
  // Kernels reach the tool runtime, which is built once the tool sources (kernels among them) exist.
  let toolRuntime: ToolRuntimeService | null = null;
  const sandbox = new ProjectSandboxService({
    store,
    files,
    dataDir,
    binDir: path.join(dataDir, 'bin'),
    // The endpoint's socket is bound into each sandbox, so its scripts reach the tools without a network.
    socketDir: async () => (toolRuntime ? toolRuntime.socketDir() : null),
    ...(env.CAIRN_SANDBOX_BWRAP?.trim() ? { bwrap: env.CAIRN_SANDBOX_BWRAP.trim() } : {}),
    logger: logger.child({ component: 'sandbox' }),
  });
  const sandboxOf = (sessionId: string) => sandbox.forSession(sessionId);
  const kernels =
    kernelProvider && projectPython
      ? new KernelService({
          manager: new KernelManager(
            kernelManagerOptions({
              env,
              logger: kernelLogger,
              remote: () => kernelProvider.target(),
              // A local kernel reaches the tool runtime (built below) from its start; its cells get tokens.
              scriptEnv: (base) => {
                if (!toolRuntime) throw new Error('the tool runtime is not built yet');
                return toolRuntime.scriptEnv(base);
              },
            }),
          ),
          store,
          dataDir,
          python: projectPython,
          logger: kernelLogger,
          sandbox: sandboxOf,
        })
      : null;
  const mcpOAuth = conversationOnly
    ? null
    : new McpOAuthService({
        keychain,
        env,
        logger: logger.child({ component: 'mcp' }),
        // How long a turn (or a call) waits for the user to log in to an MCP server.
        loginWaitMs: envInt(env.CAIRN_MCP_LOGIN_TIMEOUT_SEC, 600) * 1000,
      });
  const mcpServers = mcpOAuth ? new McpConfigService(store, keychain, mcpOAuth) : null;
  // The runtime answers whether a session is running; it is built after the MCP sessions it serves.
  let runtime: AgentRuntime | null = null;
  const mcpSessions = conversationOnly
    ? null
    : new McpSessionService({
        store,
        keychain,
        oauth: mcpOAuth!,
        dataDir,
        env,
        logger: logger.child({ component: 'mcp' }),
        isSessionRunning: (id) => runtime?.isSessionRunning(id) ?? false,
      });
  const mcpImport = mcpServers ? new McpImportService(store, mcpServers, env) : null;
  const mcpTest = mcpServers
    ? new McpTestService({ config: mcpServers, oauth: mcpOAuth!, keychain, env, dataDir, logger })
    : null;

  const compactionQueue = new CompactionQueue();
  const compactor = new Compactor({
    ...compactorPorts(store, files),
    ...(kernels ? { kernelVariables: (sessionId: string) => kernels.inventory(sessionId) } : {}),
  });
  const memoryEdits = new MemoryEdits(store);
  // The Context tool reaches the service built below, once the runtime it needs exists; Memory is the
  // scripts' handle on the working history (runtime.selfref.memory).
  let context: ContextService | null = null;
  const contextTools: ToolSource = {
    toolsForTurn: async () => (context ? [contextTool(context), memoryTool(memoryEdits)] : []),
  };
  // Fork reaches its service the same way: the service needs the runtime, which needs the tools.
  let forks: ForkService | null = null;
  // CAIRN_FORK_LIMIT=0 turns forks off: the model is not offered Fork.
  const forkLimit = envInt(env.CAIRN_FORK_LIMIT, 4);
  const forkTools: ToolSource = {
    toolsForTurn: async () => (forks && forkLimit > 0 ? [forkTool(forks)] : []),
  };
  // Code mode's final_answer records the answer through this script-only tool.
  const finalAnswers = new FinalAnswers();
  const codeModeTools: ToolSource = { toolsForTurn: async () => [finalAnswerTool(finalAnswers)] };
  const toolSources: ToolSource[] = [
    builtinToolSource({ conversationOnly }),
    contextTools,
    forkTools,
    codeModeTools,
  ];
  if (kernels) toolSources.push(kernels);
  if (mcpSessions) toolSources.push(mcpSessions);
  const broker = new QuestionBroker(store);
  const toolLogger = logger.child({ component: 'tools' });
  // Loading a tool runs the project's code: only where sessions have projects, on the project's Python.
  const loader = projectPython
    ? new ToolLoader({
        python: (root, sessionId) => projectPython.forSession(sessionId, root),
        env: () => childEnv(env),
        scratchDir: path.join(dataDir, 'tool-runtime'),
        logger: toolLogger,
      })
    : null;
  toolRuntime = new ToolRuntimeService({
    store,
    files,
    broker,
    logger: toolLogger,
    dataDir,
    sources: combineToolSources(toolSources),
    sandbox: sandboxOf,
    ...(loader ? { loadTool: (registry: LoadedToolRegistry) => loadToolTool(loader, registry) } : {}),
  });
  const runtimeOfTools = toolRuntime;
  // A project that holds the data directory (a home folder opened as a project) never records Cairn's own files.
  const snapshots = new SnapshotStores(path.join(dataDir, 'snapshots'), [realDir(dataDir)]);
  runtime = new AgentRuntime({
    store,
    files,
    logger,
    logDir: path.join(dataDir, 'logs'),
    conversationOnly,
    toolRuntime: (sessionId) => toolRuntime.session(sessionId),
    broker,
    modelSettings: () => models.activeSettings(),
    modelMaxRetries: envInt(env.CAIRN_MODEL_MAX_RETRIES, 2),
    maxContinuations: envInt(env.CAIRN_MAX_CONTINUATIONS, 5),
    compactor,
    compactionQueue,
    memoryEdits,
    ...(conversationOnly
      ? {}
      : {
          turnFiles: new TurnFileRecorder({
            store,
            snapshots,
            logger: logger.child({ component: 'snapshots' }),
          }),
        }),
    // A turn's forks end with it.
    turnEnding: async (_sessionId, turnId) => forks?.parentTurnEnding(turnId),
    ...(kernels && projectPython
      ? {
          codeMode: {
            answers: finalAnswers,
            runPrelude: (sessionId, turnId, code, signal) =>
              kernels.runSetupCell(sessionId, turnId, DEFAULT_KERNEL, code, signal),
            maxSteps: Math.max(1, envInt(env.CAIRN_CODE_MAX_STEPS, 30)),
          } satisfies CodeModeOptions,
        }
      : {}),
  });
  const resources: SessionResource[] = [toolRuntime];
  if (kernels) resources.push(kernels);
  if (mcpSessions) resources.push(mcpSessions);
  forks = new ForkService({
    store,
    runtime,
    toolNames: (sessionId) =>
      runtimeOfTools
        .session(sessionId)
        .modelTools()
        .map((t) => t.name),
    limit: forkLimit,
    // A fork runs one turn: once it has ended, nothing of its session runs on.
    release: async (sessionId) => {
      for (const resource of resources) await resource.closeSession(sessionId);
    },
    logger: logger.child({ component: 'forks' }),
  });
  const experiences = new ExperienceService(store);
  context = new ContextService({
    store,
    models,
    runtime,
    compactor,
    queue: compactionQueue,
    memory: experiences,
    logger,
    modelMaxRetries: envInt(env.CAIRN_MODEL_MAX_RETRIES, 2),
  });

  // A changed setting stops what runs under the old one: shell commands and loaded tools, kernels restart.
  sandbox.onChange((ids) => runtimeOfTools.sandboxChanged(ids));
  if (kernels) sandbox.onChange((ids) => kernels.sandboxChanged(ids));

  const fileHistory = new FileHistoryService({
    store,
    snapshots,
    runtime,
    conversationOnly,
    logger: logger.child({ component: 'snapshots' }),
  });
  const sessions = new SessionService({
    store,
    runtime,
    files,
    resources,
    conversationOnly,
    hasKernels: kernels !== null,
    forks,
    projectSessionDeleted: (projectId) => void fileHistory.collectGarbage(projectId),
  });
  const permissions = new PermissionRuleService(store);
  const services: Services = {
    info: new SidecarInfo({
      dataDir,
      conversationOnly,
      hasKernels: kernels !== null,
      hasMcp: mcpServers !== null,
    }),
    projects: new ProjectService({
      store,
      sessions,
      conversationOnly,
      python: projectPython,
      sandbox,
      snapshots,
    }),
    sessions,
    branching: new SessionBranching({ store, files }),
    sessionExport: new SessionExporter({ store, files }),
    sessionImport: new SessionImporter({ store, files, conversationOnly, logger }),
    turns: new TurnService({ store, runtime }),
    fileHistory,
    forks,
    toolCalls: new ToolCallService({ store, files }),
    questions: new QuestionService({ store, runtime, permissions }),
    permissions,
    events: new EventFeed(store),
    models,
    context,
    experiences,
    search: new SearchService(store),
    toolRuntime,
    kernels: () => requirePart(kernels, 'Python kernels'),
    kernelProvider: () => requirePart(kernelProvider, 'Python kernels'),
    // Without projects there is no project interpreter either.
    projectPython: () => requirePart(projectPython, 'projects'),
    mcpServers: () => requirePart(mcpServers, 'MCP servers'),
    mcpImport: () => requirePart(mcpImport, 'MCP servers'),
    mcpTest: () => requirePart(mcpTest, 'MCP servers'),
    mcpSessions: () => requirePart(mcpSessions, 'MCP servers'),
    mcpOAuth: () => requirePart(mcpOAuth, 'MCP servers'),
  };
  return { services, runtime, kernels, mcpSessions, keychain, conversationOnly };
}
