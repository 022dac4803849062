#!/usr/bin/env node
// `npm run serve`: builds the web UI when it is missing or older than its sources, then starts
// `cairn serve` with any arguments given after `--`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'renderer', 'dist', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath ?? entry.path, entry.name);
    newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [path.join(root, 'renderer', 'src'), path.join(root, 'sidecar', 'src', 'protocol')];
const builtAt = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0;
if (
  builtAt <
  Math.max(...sources.map(newestMtime), fs.statSync(path.join(root, 'renderer', 'index.html')).mtimeMs)
) {
  console.error('Building the web UI…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', path.join(root, 'renderer', 'vite.config.ts'), '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(
  process.execPath,
  [path.join(root, 'sidecar', 'bin', 'cairn.mjs'), 'serve', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
// Ctrl+C reaches the server directly (same terminal), so this wrapper only waits for it to stop;
// a SIGTERM sent to the wrapper alone is passed on (POSIX only: on Windows kill() terminates at once).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  if (process.platform !== 'win32') child.kill('SIGTERM');
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
