import fs from 'node:fs';
import path from 'node:path';

/** Every file under a folder, recursively (database, WAL, logs, tool results, audit logs). */
export function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
}
