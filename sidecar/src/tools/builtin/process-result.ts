import { existsSync } from 'node:fs';
import { z } from 'zod';
import { CairnError } from '../../errors';
import { childEnv } from '../child-env';
import type { RunProcessResult } from '../process-runner';
import { type ToolContext, ToolError, type ToolResult } from '../tool';

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const MAX_TIMEOUT_SECONDS = 600;

/** Extra variables for commands the model runs: nobody can answer a prompt, so git must not wait for one. */
export const NON_INTERACTIVE_ENV = { GIT_TERMINAL_PROMPT: '0' } as const;

/**
 * A timeout in seconds from the model, defaulted and capped for a call the turn waits for; a background
 * call has none unless the model gave one, and that one is not capped. null: no limit.
 */
export function timeoutSeconds(requested: number | undefined, background = false): number | null {
  const given = requested !== undefined && Number.isFinite(requested) && requested > 0;
  if (background) return given ? requested : null;
  if (!given) return DEFAULT_TIMEOUT_SECONDS;
  return Math.min(requested, MAX_TIMEOUT_SECONDS);
}

/** The `timeout` input of Bash and Exec. */
export const timeoutInput = z
  .number()
  .positive()
  .optional()
  .describe(
    `Seconds before it and all it started are killed (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}; in the background: none unless given).`,
  );

/** The environment of a command the model runs: without Cairn's secrets, with the way back to its tools. */
export function commandEnv(ctx: ToolContext): NodeJS.ProcessEnv {
  const env = { ...childEnv(), ...NON_INTERACTIVE_ENV };
  return ctx.scriptAccess ? ctx.scriptAccess.env(env) : env;
}

/**
 * The model-facing result of a Bash/Exec run: the interleaved output, then a last line when it failed
 * (exit code, signal, timeout or cancellation).
 */
export function processToolResult(result: RunProcessResult, timeoutSec: number | null): ToolResult {
  const body = result.output;
  const meta = {
    ...(result.signal ? { signal: result.signal } : {}),
    ...(result.timedOut ? { timed_out: true } : {}),
    ...(result.truncated ? { output_truncated: true } : {}),
  };
  const withFooter = (footer: string) => ({
    content: body === '' ? footer : `${body}${body.endsWith('\n') ? '' : '\n'}${footer}`,
    isError: true,
    exitCode: result.exitCode,
    meta,
  });
  if (result.cancelled) return withFooter('Command cancelled; the process tree was killed.');
  if (result.timedOut) {
    return withFooter(`Command timed out after ${timeoutSec} s; the process tree was killed.`);
  }
  if (result.exitCode !== 0) {
    return withFooter(
      result.exitCode === null
        ? `[killed by signal ${result.signal ?? 'unknown'}]`
        : `[exit code ${result.exitCode}]`,
    );
  }
  return { content: body === '' ? '(no output)' : body, exitCode: result.exitCode, meta };
}

/** A ToolError for a program that could not be started at all. */
export function spawnFailure(err: unknown, program: string, cwd: string): ToolError {
  // The project's sandbox cannot run here: its message says what to install.
  if (err instanceof CairnError && err.code === 'sandbox_unavailable') return new ToolError(err.message);
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  // spawn reports a missing working folder as ENOENT too.
  if (code === 'ENOENT' && !existsSync(cwd))
    return new ToolError(`The project folder ${cwd} no longer exists.`);
  if (code === 'ENOENT') {
    const hint =
      process.platform === 'win32'
        ? ' On Windows, .cmd/.bat scripts such as npm need `cmd.exe` with args ["/d", "/s", "/c", ...].'
        : '';
    return new ToolError(`Program not found: "${program}" (not on PATH, or the path is wrong).${hint}`);
  }
  // Node refuses to spawn .cmd/.bat without a shell (CVE-2024-27980) and says only EINVAL.
  if (code === 'EINVAL' && /\.(cmd|bat)$/i.test(program)) {
    return new ToolError(
      `"${program}" is a batch script, which cannot start without a shell: use the program "cmd.exe" with args ["/d", "/s", "/c", "${program}", ...].`,
    );
  }
  if (code === 'EACCES') return new ToolError(`"${program}" is not executable (permission denied).`);
  return new ToolError(`Could not start "${program}": ${err instanceof Error ? err.message : String(err)}`);
}
