import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to true by the sidecar bundle's build (scripts/build-app.mjs); absent when running from source. */
declare const __CAIRN_BUNDLE__: boolean | undefined;

const bundled = typeof __CAIRN_BUNDLE__ !== 'undefined' && __CAIRN_BUNDLE__;

/**
 * The folder that holds package.json and renderer/dist. From source this file is
 * sidecar/src/config/app-paths.ts; in the bundle everything is dist/sidecar/cairn.mjs, inside the
 * app's asar archive when packaged.
 */
export const APP_ROOT = path.resolve(
  fileURLToPath(new URL(bundled ? '../../' : '../../../', import.meta.url)),
);

/** The built web UI that `cairn serve` serves. */
export const RENDERER_DIST_DIR = path.join(APP_ROOT, 'renderer', 'dist');

/**
 * A file or folder shipped as a resource outside the app archive when packaged (for programs that cannot
 * read inside asar, and files the bundle does not hold), or null when it is not there (running from source).
 * The resources folder holds app.asar (the app root) and the resources beside it.
 */
export function packagedResource(...parts: string[]): string | null {
  const resources =
    (process as { resourcesPath?: string }).resourcesPath ??
    (APP_ROOT.endsWith('.asar') ? path.dirname(APP_ROOT) : undefined);
  if (!resources) return null;
  const file = path.join(resources, ...parts);
  return existsSync(file) ? file : null;
}
