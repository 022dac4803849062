import path from 'node:path';
import { APP_ROOT, packagedResource } from '../config/app-paths';

/**
 * The driver file: shipped outside the app archive as a resource when packaged (Python cannot read inside
 * asar), else beside this file in the source tree.
 */
export function defaultDriverPath(): string {
  return (
    packagedResource('kernel', 'cairn_kernel.py') ??
    path.join(APP_ROOT, 'sidecar', 'src', 'kernels', 'driver', 'cairn_kernel.py')
  );
}
