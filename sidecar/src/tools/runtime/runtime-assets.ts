import path from 'node:path';
import { APP_ROOT, packagedResource } from '../../config/app-paths';

/**
 * The tool runtime's files that run outside the sidecar (the Python client, the workers of loaded tools):
 * shipped as a resource outside the app archive when packaged (Python cannot read inside asar), else in
 * the source tree beside this file.
 */
export function runtimeAssetsDir(): string {
  return (
    packagedResource('tool-runtime') ?? path.join(APP_ROOT, 'sidecar', 'src', 'tools', 'runtime', 'assets')
  );
}

/**
 * The folder scripts get on PYTHONPATH: it holds `cairn_tools.py` and `cairn_runtime.py` (the kernel's
 * `runtime` object) and nothing else.
 */
export function pythonClientDir(): string {
  return path.join(runtimeAssetsDir(), 'python');
}
