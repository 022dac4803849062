import os from 'node:os';
import path from 'node:path';

/** The data directory: the flag, else CAIRN_DATA_DIR, else ~/.cairn. */
export function resolveDataDir(flag?: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag || env.CAIRN_DATA_DIR || path.join(os.homedir(), '.cairn');
  return path.resolve(chosen);
}
