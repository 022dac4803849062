import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../../config/app-paths';
import { ToolError } from '../../tool';

export const JS_WORKER_ASSET = 'cairn-tool-worker.mjs';
export const PYTHON_WORKER_ASSET = 'cairn_tool_worker.py';

/**
 * A worker asset (assets/): shipped outside the app archive as a resource when packaged (a separate Node or
 * Python cannot read inside asar), else in the source tree.
 */
export function toolRuntimeAssetPath(file: string): string {
  // Packaged, the resources folder holds app.asar (the app root) and the tool-runtime folder beside it.
  const resources =
    (process as { resourcesPath?: string }).resourcesPath ??
    (APP_ROOT.endsWith('.asar') ? path.dirname(APP_ROOT) : undefined);
  if (resources) {
    const packaged = path.join(resources, 'tool-runtime', file);
    if (existsSync(packaged)) return packaged;
  }
  return path.join(APP_ROOT, 'sidecar', 'src', 'tools', 'runtime', 'assets', file);
}

export interface NodeRuntime {
  execPath: string;
  /** process.versions.electron: set when this process is Electron's, which cannot run a script as Node. */
  electron: string | undefined;
  platform: NodeJS.Platform;
}

const THIS_RUNTIME: NodeRuntime = {
  execPath: process.execPath,
  electron: process.versions.electron,
  platform: process.platform,
};

/**
 * The Node that runs JavaScript workers: this one when it is a plain Node; inside Electron (whose binary
 * has the runAsNode fuse off) the first `node` on the workers' PATH. Throws a ToolError saying what to do
 * when there is none.
 */
export function nodeForWorkers(env: NodeJS.ProcessEnv, runtime: NodeRuntime = THIS_RUNTIME): string {
  if (!runtime.electron) return runtime.execPath;
  const p = runtime.platform === 'win32' ? path.win32 : path.posix;
  const names = runtime.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(p.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const file = p.join(dir, name);
      if (isFile(file)) return file;
    }
  }
  throw new ToolError(
    'A JavaScript tool in mode "process" runs in a separate Node.js, and none was found on PATH (Cairn\'s ' +
      'own runtime cannot run it). Install Node.js (https://nodejs.org), or load the tool with mode "local" ' +
      'to run it inside Cairn.',
  );
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
