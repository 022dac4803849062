import { z } from 'zod';
import { requireProjectRoot } from '../path-guard';
import { runProcess } from '../process-runner';
import { defineTool } from '../tool';
import { commandEnv, processToolResult, spawnFailure, timeoutInput, timeoutSeconds } from './process-result';

const inputSchema = z.object({
  program: z.string().min(1).describe('The program to run: a name found on PATH (e.g. `git`) or a path.'),
  args: z.array(z.string()).describe('The arguments, one string each, passed as-is (no shell quoting).'),
  timeout: timeoutInput,
});

export const execTool = defineTool({
  name: 'Exec',
  description:
    'Runs a program directly, without a shell, in the project folder and returns its combined stdout and ' +
    'stderr. No pipes, redirections, globs or variables: use Bash for those. Works where no bash is ' +
    'installed. The program and all processes it started are killed when it times out.',
  inputSchema,
  sideEffects: true,
  needsProject: true,
  background: 'tool',
  scripts: true,
  async execute(input, ctx) {
    const cwd = requireProjectRoot(ctx);
    const seconds = timeoutSeconds(input.timeout, ctx.background);
    try {
      const result = await runProcess({
        file: input.program,
        args: input.args,
        cwd,
        env: commandEnv(ctx),
        signal: ctx.signal,
        sandbox: ctx.sandbox ?? null,
        ...(seconds === null ? {} : { timeoutMs: seconds * 1000 }),
        onOutput: (stream, text) => ctx.onOutput(stream, text),
        onSpawn: (pid) => ctx.onProcessStarted?.(pid),
      });
      return processToolResult(result, seconds);
    } catch (err) {
      throw spawnFailure(err, input.program, cwd);
    }
  },
});
