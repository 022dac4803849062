import { spawn } from 'node:child_process';
import os from 'node:os';

/** Whether a text parses as Python; injected into `extractCode` so parsing can be faked or cached. */
export type ParsesPython = (code: string) => Promise<boolean>;

const CHECK = 'import ast,sys; ast.parse(sys.stdin.read())';

/** The system's interpreter: never the project's, whose files (a venv, an `ast.py`) the agent can write. */
export const SYSTEM_PYTHON = process.platform === 'win32' ? 'python' : 'python3';

/**
 * A checker that asks a Python parser. It runs outside any approval, so it must run nothing the agent
 * wrote: the system interpreter, isolated (`-I`: no script folder or user site on sys.path, no PYTHON*
 * variables; `-S`: no site, so no `.pth` files), in the temporary folder, with no environment but PATH
 * (none of Cairn's secrets). A check that cannot run or does not finish within `timeoutMs` counts as
 * "does not parse": the reply then gets the expected-form error and the model retries.
 */
export function pythonParses(python: string = SYSTEM_PYTHON, timeoutMs = 10_000): ParsesPython {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' };
  if (process.env.SystemRoot) env.SystemRoot = process.env.SystemRoot;
  return (code) =>
    new Promise<boolean>((resolve) => {
      const child = spawn(python, ['-I', '-S', '-c', CHECK], {
        stdio: ['pipe', 'ignore', 'ignore'],
        timeout: timeoutMs,
        cwd: os.tmpdir(),
        env,
      });
      child.on('error', () => resolve(false));
      child.on('close', (status) => resolve(status === 0));
      // The interpreter may exit (or be killed by the timeout) before reading everything: not an error here.
      child.stdin.on('error', () => {});
      child.stdin.end(code);
    });
}
