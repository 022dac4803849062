import fs from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../config/app-paths';
import { pythonClientDir } from './runtime-assets';

/** Set to true by the sidecar bundle's build; absent when running from source. */
declare const __CAIRN_BUNDLE__: boolean | undefined;

/**
 * Writes `cairn` (and `cairn.cmd` on Windows) into `binDir`, which scripts get first on PATH, so a shell
 * script can run `cairn tool call …`. It runs this very program with the Node that runs the sidecar; inside
 * Electron, whose binary is not a Node for other programs, it runs the Python client's command line, which
 * takes the same `tool` arguments.
 */
export function writeCairnShim(binDir: string): void {
  fs.mkdirSync(binDir, { recursive: true, mode: 0o700 });
  const command = shimCommand();
  if (process.platform === 'win32') {
    const line = command.map((part) => `"${part}"`).join(' ');
    fs.writeFileSync(path.join(binDir, 'cairn.cmd'), `@echo off\r\n${line} %*\r\n`, { mode: 0o700 });
    return;
  }
  const line = command.map(shellQuote).join(' ');
  const file = path.join(binDir, 'cairn');
  fs.writeFileSync(file, `#!/bin/sh\nexec ${line} "$@"\n`, { mode: 0o700 });
  fs.chmodSync(file, 0o700);
}

function shimCommand(): string[] {
  if (process.versions.electron) {
    return [
      process.platform === 'win32' ? 'python' : 'python3',
      path.join(pythonClientDir(), 'cairn_tools.py'),
      'cli',
    ];
  }
  const bundled = typeof __CAIRN_BUNDLE__ !== 'undefined' && __CAIRN_BUNDLE__;
  const entry = bundled
    ? path.join(APP_ROOT, 'dist', 'sidecar', 'cairn.mjs')
    : path.join(APP_ROOT, 'sidecar', 'bin', 'cairn.mjs');
  return [process.execPath, entry];
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
