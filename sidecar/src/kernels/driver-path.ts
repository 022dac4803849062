import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../config/app-paths';

/**
 * The driver file: shipped outside the app archive as a resource when packaged (Python cannot read inside
 * asar), else beside this file in the source tree.
 */
export function defaultDriverPath(): string {
  // Packaged, the resources folder holds app.asar (the app root) and the kernel folder beside it.
  const resources =
    (process as { resourcesPath?: string }).resourcesPath ??
    (APP_ROOT.endsWith('.asar') ? path.dirname(APP_ROOT) : undefined);
  if (resources) {
    const packaged = path.join(resources, 'kernel', 'cairn_kernel.py');
    if (existsSync(packaged)) return packaged;
  }
  return path.join(APP_ROOT, 'sidecar', 'src', 'kernels', 'driver', 'cairn_kernel.py');
}
