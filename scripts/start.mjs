#!/usr/bin/env node
// `npm start`: runs the desktop app from this clone. Builds whatever is older than its sources (the web UI,
// the sidecar bundle, the Electron main process and preload), then launches Electron on the app.
//
//   npm start [-- --skip-renderer] [-- ELECTRON ARGS…]
//
// --skip-renderer launches with the web UI as last built (e.g. when only the host or sidecar changed).
// Every other argument goes to Electron.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildApp, PART_NAMES } from './build/app.mjs';
import { ROOT } from './build/runtime-deps.mjs';

function electronBinary() {
  try {
    // The electron package exports the path of the binary its install script downloaded.
    return createRequire(`${ROOT}/package.json`)('electron');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(
      [
        `The Electron binary is missing (${reason}).`,
        'Download it with `node node_modules/electron/install.js`, or run `npm install` without',
        'ELECTRON_SKIP_BINARY_DOWNLOAD set in the environment.',
        'Without Electron, `npm run serve` runs the same app in a browser.',
      ].join('\n'),
    );
    return null;
  }
}

const args = process.argv.slice(2);
const skipRenderer = args.includes('--skip-renderer');
const electronArgs = args.filter((arg) => arg !== '--skip-renderer');

const electron = electronBinary();
if (electron === null) process.exit(1);

try {
  await buildApp({ only: PART_NAMES.filter((part) => !skipRenderer || part !== 'renderer'), ifStale: true });
} catch (error) {
  console.error(`start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

// In development the host runs the sidecar under this plain Node (built for Node, like better-sqlite3 in
// node_modules) rather than Electron's utilityProcess, which would need the native modules built for Electron.
const env = { ...process.env, CAIRN_DEV_NODE: process.execPath };
// Set, it would make Electron run as plain Node instead of starting the app.
delete env.ELECTRON_RUN_AS_NODE;

const child = spawn(electron, ['.', ...electronArgs], { cwd: ROOT, env, stdio: 'inherit' });
child.on('error', (error) => {
  console.error(`start: could not launch Electron (${electron}): ${error.message}`);
  process.exit(1);
});
// Ctrl+C reaches Electron directly (same terminal); a SIGTERM sent to this wrapper alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
