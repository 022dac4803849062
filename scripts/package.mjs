#!/usr/bin/env node
// `npm run package:win` / `npm run package:mac`: builds the app, then the installers with electron-builder
// (electron-builder.yml) into release/.
//
//   node scripts/package.mjs win|mac [ELECTRON-BUILDER ARGS…]
//
// electron-builder rebuilds the native modules (better-sqlite3, keytar) for Electron *in place* in
// node_modules (@electron/rebuild with the project as build path), which would break `npm test` and
// `npm run serve` under Node afterwards; so this always finishes with `npm rebuild` of those modules.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildApp } from './build/app.mjs';
import { npmCommand } from './build/npm-command.mjs';
import { nativeRuntimeDependencies, ROOT } from './build/runtime-deps.mjs';

// Signing, notarization and the native rebuild need the target's own OS (and its toolchain).
const TARGETS = {
  win: { flag: '--win', platform: 'win32', os: 'Windows' },
  mac: { flag: '--mac', platform: 'darwin', os: 'macOS' },
};

const [targetName, ...builderArgs] = process.argv.slice(2);
const target = TARGETS[targetName ?? ''];
if (target === undefined) {
  console.error('Usage: node scripts/package.mjs win|mac [electron-builder arguments…]');
  process.exit(2);
}
if (process.platform !== target.platform) {
  console.error(
    `${target.os} installers are built on ${target.os} (signing and the native-module rebuild need it); ` +
      `this is ${process.platform}. \`npm run build:app\` builds the app's parts anywhere.`,
  );
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) console.error(`package: ${command}: ${result.error.message}`);
  return result.status ?? 1;
}

function npm(args) {
  const command = npmCommand(args);
  return run(command.file, command.args, { shell: command.shell });
}

try {
  await buildApp();
} catch (error) {
  console.error(`package: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const natives = nativeRuntimeDependencies();
const cli = createRequire(`${ROOT}/package.json`).resolve('electron-builder/cli.js');
// Never publish by accident (electron-builder publishes on CI when it finds a token) unless asked to.
const publish = builderArgs.some((arg) => arg.startsWith('--publish') || arg === '-p')
  ? []
  : ['--publish', 'never'];
const built = run(process.execPath, [
  cli,
  target.flag,
  '--config',
  'electron-builder.yml',
  ...publish,
  ...builderArgs,
]);

console.error(
  `Restoring the Node builds of ${natives.join(', ')} (electron-builder rebuilt them for Electron)…`,
);
const restored = npm(['rebuild', ...natives]);
if (restored !== 0) {
  console.error(`package: \`npm rebuild ${natives.join(' ')}\` failed: run it by hand before \`npm test\`.`);
}
process.exit(built !== 0 ? built : restored);
