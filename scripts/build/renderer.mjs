// The web UI build (vite → renderer/dist), and whether it is older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './runtime-deps.mjs';

export function rendererIndex(root = ROOT) {
  return path.join(root, 'renderer', 'dist', 'index.html');
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether renderer/dist is missing or older than the UI's sources (and the protocol shapes it imports). */
export function rendererIsStale(root = ROOT) {
  const index = rendererIndex(root);
  if (!fs.existsSync(index)) return true;
  const sources = [
    path.join(root, 'renderer', 'src'),
    path.join(root, 'renderer', 'index.html'),
    path.join(root, 'renderer', 'vite.config.ts'),
    path.join(root, 'sidecar', 'src', 'protocol'),
    path.join(root, 'package.json'),
  ];
  return fs.statSync(index).mtimeMs < Math.max(...sources.map(newestMtime));
}

/** Runs `vite build`; throws when it fails (vite has printed why). */
export function buildRenderer(root = ROOT) {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', path.join(root, 'renderer', 'vite.config.ts'), '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('Building the web UI failed (vite printed why above).');
}
