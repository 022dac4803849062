// How the developer scripts run npm: the npm that started them, so `npx npm@12 test` checks with npm 12.
import path from 'node:path';

/** The file and arguments that run `npm ARGS…`; `shell` is set where Node cannot spawn npm without one. */
export function npmCommand(args) {
  // Under `npm run` (and `npx`), npm_execpath is npm's own script: run it with this Node, no shell needed.
  // Another package manager's script there (pnpm, yarn) is not npm, so it is passed over.
  const npmCli = process.env.npm_execpath;
  if (npmCli && /^npm-cli\.[cm]?js$/.test(path.basename(npmCli))) {
    return { file: process.execPath, args: [npmCli, ...args], shell: false };
  }
  // Node refuses to spawn a .cmd without a shell; the arguments here are the scripts' own, fixed ones.
  if (process.platform === 'win32') return { file: 'npm.cmd', args, shell: true };
  return { file: 'npm', args, shell: false };
}
