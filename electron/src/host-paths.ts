import os from 'node:os';
import path from 'node:path';

/** Where the host finds its parts and keeps its files. */
export interface HostPaths {
  /** The sidecar bundle, started under Node or Electron's utilityProcess. */
  sidecarEntry: string;
  /** The built renderer served at app://cairn. */
  rendererDir: string;
  /** The preload script (dist/electron/preload.cjs, beside main.cjs). */
  preload: string;
  /** The sidecar's data directory: the same one the `cairn` CLI uses. */
  dataDir: string;
  /** Sidecar failure reports. */
  diagnosticsDir: string;
}

/**
 * `appPath` is the folder with package.json (the repository in development, the asar archive when
 * packaged). The data directory is CAIRN_DATA_DIR or ~/.cairn, not Electron's userData, so the
 * desktop app and the CLI see the same projects and sessions.
 */
export function hostPaths(
  appPath: string,
  userDataDir: string,
  env: Record<string, string | undefined>,
  homeDir: string = os.homedir(),
): HostPaths {
  const dataDir = env.CAIRN_DATA_DIR?.trim() || path.join(homeDir, '.cairn');
  return {
    sidecarEntry: path.join(appPath, 'dist', 'sidecar', 'cairn.mjs'),
    rendererDir: path.join(appPath, 'renderer', 'dist'),
    preload: path.join(appPath, 'dist', 'electron', 'preload.cjs'),
    dataDir: path.resolve(dataDir),
    diagnosticsDir: path.join(userDataDir, 'logs'),
  };
}
