import { z } from 'zod';
import { childEnv } from '../child-env';
import { requireProjectRoot } from '../path-guard';
import { runProcess } from '../process-runner';
import { defineTool } from '../tool';
import {
  DEFAULT_TIMEOUT_SECONDS,
  NON_INTERACTIVE_ENV,
  processToolResult,
  spawnFailure,
} from './process-result';

const inputSchema = z.object({
  program: z.string().min(1).describe('The program to run: a name found on PATH (e.g. `git`) or a path.'),
  args: z.array(z.string()).describe('The arguments, one string each, passed as-is (no shell quoting).'),
});

export const execTool = defineTool({
  name: 'Exec',
  description:
    'Runs a program directly, without a shell, in the project folder and returns its combined stdout and ' +
    'stderr. No pipes, redirections, globs or variables: use Bash for those. Works where no bash is ' +
    `installed. The program and all processes it started are killed after ${DEFAULT_TIMEOUT_SECONDS} s.`,
  inputSchema,
  sideEffects: true,
  needsProject: true,
  async execute(input, ctx) {
    const cwd = requireProjectRoot(ctx);
    try {
      const result = await runProcess({
        file: input.program,
        args: input.args,
        cwd,
        env: { ...childEnv(), ...NON_INTERACTIVE_ENV },
        signal: ctx.signal,
        timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
        onOutput: (stream, text) => ctx.onOutput(stream, text),
        onSpawn: (pid) => ctx.onProcessStarted?.(pid),
      });
      return processToolResult(result, DEFAULT_TIMEOUT_SECONDS);
    } catch (err) {
      throw spawnFailure(err, input.program, cwd);
    }
  },
});
