// The built `cairn/client` (dist/client), rebuilt for a test when any source it is made from is newer.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUTPUT = path.join(REPO_ROOT, 'dist', 'client', 'index.js');
const SOURCES = ['sidecar/src/client', 'sidecar/src/protocol', 'scripts/build-client.mjs', 'package.json'];

function newestSource(): number {
  let newest = 0;
  for (const source of SOURCES) {
    const full = path.join(REPO_ROOT, source);
    const files = fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).map((file) => path.join(full, file))
      : [full];
    for (const file of files) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build:client`'s script unless dist/client is newer than everything it is built from. */
export function ensureClientBuilt(): void {
  if (fs.existsSync(OUTPUT) && fs.statSync(OUTPUT).mtimeMs >= newestSource()) return;
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-client.mjs')], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}
