import nodePath from 'node:path';
import type { PythonCommand } from '../../../kernels/driver-spawn';
import type { Logger } from '../../../log/logger';
import type { SandboxSpec } from '../../../process/sandbox';
import type { LoadedToolMode } from '../../../protocol';
import { assertRegularFile, displayPath, resolveInside } from '../../path-guard';
import { ToolError } from '../../tool';
import { type LoadedToolHandle, WorkerLoadedToolHandle } from './loaded-tool-handle';
import { LocalToolWorker } from './local-tool-worker';
import { moduleLanguage, prepareJavaScriptModule } from './module-file';
import { ProcessToolWorker, type WorkerSpawnOptions } from './process-tool-worker';
import { type ToolDescription, type ToolLanguage, validateToolDescription } from './tool-description';
import { type ToolWorker, WorkerGoneError } from './tool-worker';
import { WorkerLoadError } from './worker-client';
import { JS_WORKER_ASSET, nodeForWorkers, PYTHON_WORKER_ASSET, toolRuntimeAssetPath } from './worker-command';

export type { LoadedToolHandle } from './loaded-tool-handle';

export const DEFAULT_FACTORY = 'create_tool';
/** How long a cancelled method gets to end before its call ends without it. */
const DEFAULT_CANCEL_GRACE_MS = 2000;
/** How long importing the module and running its factory may take. */
const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
const FACTORY_PATTERN = /^[A-Za-z_$][\w$]*$/;

/** What LoadTool asks for: a module of the project, its factory and config, and where it runs. */
export interface LoadRequest {
  path: string;
  factory?: string;
  config?: Record<string, unknown>;
  mode?: LoadedToolMode;
}

/** The LoadTool call a load belongs to. */
export interface LoadContext {
  projectRoot: string;
  sessionId: string;
  toolCallId: string;
  /** Aborting stops the load (and the worker it started). */
  signal: AbortSignal;
  /** The project's sandbox: a worker runs in it, and `local` (inside Cairn, unconfined) is refused. */
  sandbox?: SandboxSpec | null;
}

export interface ToolLoaderOptions {
  /** The project's Python interpreter (the same one kernels use), resolved when a Python tool loads. */
  python(projectRoot: string, sessionId: string): Promise<PythonCommand>;
  /** The environment for workers: without Cairn's secrets (childEnv()). */
  env(): NodeJS.ProcessEnv;
  /** A folder of Cairn's own (in the data dir) for what loading needs to write, e.g. transpiled TypeScript. */
  scratchDir: string;
  logger: Logger;
  /** How long a cancelled method gets to end before its call ends anyway (default 2 s). */
  cancelGraceMs?: number;
  /** How long loading may take (default 60 s). */
  loadTimeoutMs?: number;
}

/**
 * Loads tools from files of a project (LoadTool): checks the path, starts the worker (a process, or the
 * sidecar for `mode: "local"`), loads the module there and hands back the running tool. Every failure is a
 * ToolError the model can act on, and leaves nothing running.
 */
export class ToolLoader {
  private readonly cancelGraceMs: number;
  private readonly loadTimeoutMs: number;

  constructor(private readonly options: ToolLoaderOptions) {
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    this.loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  }

  /**
   * Loads and starts the tool; throws ToolError with a message the model can act on. `nameTaken` is asked
   * before the tool is handed back (a clash stops the worker and is refused).
   */
  async load(
    request: LoadRequest,
    ctx: LoadContext,
    nameTaken: (name: string) => boolean,
  ): Promise<LoadedToolHandle> {
    const factory = request.factory ?? DEFAULT_FACTORY;
    if (!FACTORY_PATTERN.test(factory)) {
      throw new ToolError(
        `"${factory}" is not a function name; give factory as a plain name such as create_tool.`,
      );
    }
    const file = await resolveInside(ctx.projectRoot, request.path, { mustExist: true });
    const path = displayPath(ctx.projectRoot, file);
    await assertRegularFile(file, { label: request.path });
    const { language, typescript } = moduleLanguage(file, path);
    const mode = request.mode ?? 'process';
    if (language === 'python' && mode === 'local') {
      throw new ToolError(
        `${path} is a Python module, which runs only in a worker process: load it with mode "process" (the default).`,
      );
    }
    if (ctx.sandbox && mode === 'local') {
      throw new ToolError(
        `This project runs what the agent starts in a sandbox, and mode "local" would run ${path} inside Cairn, ` +
          'outside it: load it with mode "process" (the default), whose worker runs in the sandbox. (Or ask the ' +
          "user to turn the project's sandbox off.)",
      );
    }
    if (ctx.signal.aborted) throw cancelled(path);
    const module =
      language === 'javascript'
        ? await prepareJavaScriptModule(file, typescript, path, this.options.scratchDir)
        : { url: file, file };

    const logger = this.options.logger.child({ loaded_tool: path, session_id: ctx.sessionId });
    const worker = await this.startWorker(language, mode, ctx, path, logger, module.file);
    try {
      const raw = await this.withinLoadLimits(
        worker.client.load({ module: module.url, file: module.file, factory, config: request.config ?? {} }),
        ctx.signal,
        path,
      );
      const description: ToolDescription = validateToolDescription(raw, { path, factory, language });
      if (nameTaken(description.name)) {
        throw new ToolError(
          `A tool named "${description.name}" is already available in this session. Tool names must be ` +
            'unique: have the factory return another name (it can take one from config).',
        );
      }
      logger.info('loaded tool started', { name: description.name, mode, pid: worker.pid });
      return new WorkerLoadedToolHandle(worker, {
        description,
        path,
        language,
        mode,
        toolCallId: ctx.toolCallId,
        loadedAt: new Date(),
        cancelGraceMs: this.cancelGraceMs,
      });
    } catch (err) {
      await worker.stop();
      throw loadFailure(err, path, typescript);
    }
  }

  private async startWorker(
    language: ToolLanguage,
    mode: LoadedToolMode,
    ctx: LoadContext,
    path: string,
    logger: Logger,
    moduleFile: string,
  ): Promise<ToolWorker> {
    const { projectRoot } = ctx;
    // Compiled TypeScript lies in Cairn's data directory, which the sandbox hides: its folder is shown again.
    const sandbox = ctx.sandbox
      ? { ...ctx.sandbox, readable: [...ctx.sandbox.readable, nodePath.dirname(moduleFile)] }
      : null;
    const common = { cancelGraceMs: this.cancelGraceMs, logger, sandbox };
    if (mode === 'local') return new LocalToolWorker({ cancelGraceMs: this.cancelGraceMs, logger });
    const env = this.options.env();
    let spawn: WorkerSpawnOptions;
    if (language === 'python') {
      let python: PythonCommand;
      try {
        python = await this.options.python(projectRoot, ctx.sessionId);
      } catch (err) {
        throw new ToolError(`${path} needs Python: ${err instanceof Error ? err.message : String(err)}`);
      }
      spawn = {
        ...common,
        command: python.command,
        args: [...python.args, '-u', '-X', 'utf8', toolRuntimeAssetPath(PYTHON_WORKER_ASSET)],
        cwd: projectRoot,
        env: { ...env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' },
        channel: 'stdio',
      };
    } else {
      spawn = {
        ...common,
        command: nodeForWorkers(env),
        args: [toolRuntimeAssetPath(JS_WORKER_ASSET)],
        cwd: projectRoot,
        env,
        channel: 'fd3',
      };
    }
    try {
      return await ProcessToolWorker.start(spawn);
    } catch (err) {
      throw new ToolError(
        `The worker for ${path} could not be started: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** `loading` unless the LoadTool call is cancelled or loading takes too long. */
  private withinLoadLimits<T>(loading: Promise<T>, signal: AbortSignal, path: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new ToolError(
            `Loading ${path} did not finish in ${this.loadTimeoutMs / 1000} s (importing the module and ` +
              'running its factory); make the factory return quickly and do slow work in a method.',
          ),
        );
      }, this.loadTimeoutMs);
      const onAbort = () => reject(cancelled(path));
      signal.addEventListener('abort', onAbort, { once: true });
      loading.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      });
    });
  }
}

/** A load's failure as a ToolError saying what to fix. */
function loadFailure(err: unknown, path: string, typescript: boolean): unknown {
  if (err instanceof WorkerLoadError) {
    const relative =
      typescript && /ERR_MODULE_NOT_FOUND|Cannot find module/.test(err.message)
        ? '\nA TypeScript tool is compiled on its own, so it cannot import other files of the project by ' +
          'relative path: put it in one file, or write it in JavaScript (.mjs).'
        : '';
    return new ToolError(`Could not load the tool from ${path}: ${err.message}${relative}`);
  }
  if (err instanceof WorkerGoneError) {
    const output = err.end.output ? ` Its last output:\n${err.end.output}` : '';
    return new ToolError(
      `Could not load the tool from ${path}: its worker process (pid ${err.end.pid}) ${err.end.how} while loading.${output}`,
    );
  }
  return err;
}

function cancelled(path: string): ToolError {
  return new ToolError(`Loading ${path} was cancelled.`);
}
