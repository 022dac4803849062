#!/usr/bin/env node
// The first step of `npm test`: every installed dependency with an install script is either allowed or
// denied in package.json's `allowScripts`. npm 12 skips the scripts of packages not listed there (npm 11.16+
// only warns), and then better-sqlite3 and keytar are never built and Cairn does not start.
//
//   node scripts/check-install-scripts.mjs [PROJECT-DIR]
//
// It asks npm itself (`npm approve-scripts --allow-scripts-pending --json`), which reads package.json and
// node_modules only: it works offline and does not depend on what an install happened to print.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { npmCommand } from './build/npm-command.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'check-install-scripts';
const LISTING = ['approve-scripts', '--allow-scripts-pending', '--json'];
/** `npm approve-scripts` and `allowScripts` arrived together in this release. */
export const FIRST_NPM_WITH_ALLOW_SCRIPTS = '11.16.0';

/** Whether npm `version` has `npm approve-scripts --allow-scripts-pending`. */
export function npmListsPendingScripts(version) {
  const have = version.split(/[.-]/, 3).map(Number);
  const need = FIRST_NPM_WITH_ALLOW_SCRIPTS.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    if (have[i] !== need[i]) return (have[i] ?? 0) > need[i];
  }
  return true;
}

function runNpm(dir, args) {
  const command = npmCommand(args);
  return spawnSync(command.file, command.args, { cwd: dir, encoding: 'utf8', shell: command.shell });
}

/** What to print and the exit code for the project in `dir`. */
export function checkInstallScripts(dir) {
  const modules = path.join(dir, 'node_modules');
  let stat;
  try {
    stat = fs.lstatSync(modules);
  } catch {
    return fail(`${modules} is missing: run \`npm ci\` first, then this check.`);
  }
  if (stat.isSymbolicLink()) {
    // npm then sees each package as a link to a folder outside the project, which no allowScripts entry
    // matches, and would list every package with a script (or write `file:` keys when approving).
    return skip(
      `node_modules is a symbolic link (to ${fs.realpathSync(modules)}), through which npm cannot match ` +
        'packages to allowScripts. Run this check in a clone with its own node_modules (after `npm ci` there).',
    );
  }

  const versionRun = runNpm(dir, ['--version']);
  if (versionRun.error || versionRun.status !== 0) {
    return fail(`could not run npm: ${versionRun.error?.message ?? versionRun.stderr.trim()}`);
  }
  const version = versionRun.stdout.trim();
  const unsupported = () =>
    skip(
      `npm ${version} has no \`npm approve-scripts\` (it came with npm ${FIRST_NPM_WITH_ALLOW_SCRIPTS}), so ` +
        "package.json's allowScripts was not checked. This npm runs every dependency's install script anyway; " +
        'npm 12 runs only the allowed ones. Check with a newer npm: ' +
        '`npx -y npm@11 approve-scripts --allow-scripts-pending` lists what allowScripts leaves out.',
    );
  if (!npmListsPendingScripts(version)) return unsupported();

  // --offline and --no-update-notifier keep npm off the network; a user's dangerously-allow-all-scripts
  // setting would make npm report nothing pending, so it is switched off for this question.
  const listing = runNpm(dir, [
    ...LISTING,
    '--offline',
    '--no-update-notifier',
    '--no-dangerously-allow-all-scripts',
  ]);
  const command = `npm ${LISTING.join(' ')}`;
  if (listing.error) return fail(`could not run \`${command}\`: ${listing.error.message}`);
  if (listing.status !== 0) {
    if (/unknown command/i.test(`${listing.stdout}\n${listing.stderr}`)) return unsupported();
    return fail(
      `\`${command}\` (npm ${version}) failed with exit code ${listing.status}:\n${listing.stderr.trim()}`,
    );
  }
  let pending;
  try {
    pending = JSON.parse(listing.stdout).allowScripts.flatMap((entry) => entry.changes.map((c) => c.key));
  } catch {
    return fail(
      `\`${command}\` (npm ${version}) printed something other than the expected JSON:\n${listing.stdout}`,
    );
  }
  if (pending.length === 0) {
    return {
      code: 0,
      text: `${NAME}: package.json's allowScripts allows or denies every install script in node_modules (npm ${version}).`,
    };
  }
  return fail(
    [
      `${pending.length} installed package(s) have install scripts that package.json's allowScripts neither allows nor denies:`,
      ...pending.map((key) => `  ${key}`),
      'npm 12 skips such scripts (npm 11 only warns), which leaves a package that builds or downloads something broken.',
      'See what each script does with `npm approve-scripts --allow-scripts-pending`, then record the decision',
      'with `npm approve-scripts <pkg>` (the script must run) or `npm deny-scripts <pkg>` (it need not),',
      'and commit package.json.',
    ].join('\n'),
  );
}

function fail(message) {
  return { code: 1, text: `${NAME}: ${message}` };
}

function skip(message) {
  return { code: 0, text: `${NAME}: skipped: ${message}` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = checkInstallScripts(path.resolve(process.argv[2] ?? ROOT));
  (result.code === 0 ? process.stdout : process.stderr).write(`${result.text}\n`);
  process.exitCode = result.code;
}
