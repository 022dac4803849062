import { z } from 'zod';
import { resolveBash } from '../bash-resolver';
import { requireProjectRoot } from '../path-guard';
import { runProcess } from '../process-runner';
import { defineTool } from '../tool';
import { commandEnv, processToolResult, spawnFailure, timeoutInput, timeoutSeconds } from './process-result';

const inputSchema = z.object({
  command: z.string().min(1).describe('The bash command to run, e.g. `npm test 2>&1 | tail -n 50`.'),
  timeout: timeoutInput,
});

export const bashTool = defineTool({
  name: 'Bash',
  description:
    'Runs a command with `bash -c` in the project folder and returns its combined stdout and stderr. Each ' +
    'call starts a fresh shell: `cd`, `export` and shell variables do not carry over to the next call. ' +
    'stdin is empty, so interactive programs get no input. The command and all processes it started are ' +
    'killed when it times out. Its scripts can call your tools (ToolControl guide). Prefer Read, Write, ' +
    'Edit, Glob and Grep for files.',
  inputSchema,
  sideEffects: true,
  needsProject: true,
  background: 'tool',
  scripts: true,
  async execute(input, ctx) {
    const cwd = requireProjectRoot(ctx);
    const bash = resolveBash();
    const seconds = timeoutSeconds(input.timeout, ctx.background);
    try {
      const result = await runProcess({
        file: bash,
        args: ['-c', input.command],
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
      throw spawnFailure(err, bash, cwd);
    }
  },
});
