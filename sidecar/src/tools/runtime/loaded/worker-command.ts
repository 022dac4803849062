import { statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../tool';
import { runtimeAssetsDir } from '../runtime-assets';

export const JS_WORKER_ASSET = 'cairn-tool-worker.mjs';
export const PYTHON_WORKER_ASSET = 'cairn_tool_worker.py';

/** A worker's file in the runtime's assets (shipped outside the app archive when packaged). */
export function toolRuntimeAssetPath(file: string): string {
  return path.join(runtimeAssetsDir(), file);
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
