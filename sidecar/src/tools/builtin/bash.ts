import { z } from 'zod';
import { resolveBash } from '../bash-resolver';
import { childEnv } from '../child-env';
import { requireProjectRoot } from '../path-guard';
import { runProcess } from '../process-runner';
import { defineTool } from '../tool';
import { NON_INTERACTIVE_ENV, processToolResult, spawnFailure, timeoutSeconds } from './process-result';

const inputSchema = z.object({
  command: z.string().min(1).describe('The bash command to run, e.g. `npm test 2>&1 | tail -n 50`.'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Seconds before the command and everything it started is killed (default 120, max 600).'),
});

export const bashTool = defineTool({
  name: 'Bash',
  description:
    'Runs a command with `bash -c` in the project folder and returns its combined stdout and stderr. Each ' +
    'call starts a fresh shell: `cd`, `export` and shell variables do not carry over to the next call. ' +
    'stdin is empty, so interactive programs get no input. The command and all processes it started are ' +
    'killed when it times out. Prefer Read, Write, Edit, Glob and Grep for files.',
  inputSchema,
  sideEffects: true,
  needsProject: true,
  async execute(input, ctx) {
    const cwd = requireProjectRoot(ctx);
    const bash = resolveBash();
    const seconds = timeoutSeconds(input.timeout);
    try {
      const result = await runProcess({
        file: bash,
        args: ['-c', input.command],
        cwd,
        env: { ...childEnv(), ...NON_INTERACTIVE_ENV },
        signal: ctx.signal,
        timeoutMs: seconds * 1000,
        onOutput: (stream, text) => ctx.onOutput(stream, text),
        onSpawn: (pid) => ctx.onProcessStarted?.(pid),
      });
      return processToolResult(result, seconds);
    } catch (err) {
      throw spawnFailure(err, bash, cwd);
    }
  },
});
