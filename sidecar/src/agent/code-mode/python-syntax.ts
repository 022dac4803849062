import { spawn } from 'node:child_process';
import { CairnError } from '../../errors';

/** Whether a text parses as Python; injected into `extractCode` so parsing can be faked or cached. */
export type ParsesPython = (code: string) => Promise<boolean>;

const CHECK = 'import ast,sys; ast.parse(sys.stdin.read())';

/**
 * A checker that asks the given interpreter's own parser, so the answer matches the Python that runs the
 * code. A check that does not finish within `timeoutMs` counts as "does not parse": the reply then gets
 * the expected-form error and the model retries, rather than a turn hanging on a syntax check.
 */
export function pythonParses(python: string, timeoutMs = 10_000): ParsesPython {
  return (code) =>
    new Promise<boolean>((resolve, reject) => {
      const child = spawn(python, ['-c', CHECK], { stdio: ['pipe', 'ignore', 'ignore'], timeout: timeoutMs });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') {
          reject(new CairnError('python_not_found', `Python was not found at ${python}.`, { cause: err }));
        } else reject(new CairnError('internal', `Could not run ${python}: ${err.message}`, { cause: err }));
      });
      child.on('close', (status) => resolve(status === 0));
      // The interpreter may exit (or be killed by the timeout) before reading everything: not an error here.
      child.stdin.on('error', () => {});
      child.stdin.end(code);
    });
}
