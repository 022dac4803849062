import { type ErrorDetails, kernelError } from './driver-messages';
import { describeExit, type ExitInfo } from './kernel-exit';
import type { LimitHit } from './kernel-types';

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** What the limit means, in words a model can act on. */
export function limitDescription(limit: LimitHit): string {
  return limit.kind === 'active_time'
    ? `The cell ran past its limit of ${seconds(limit.limitMs)} of active execution time (time waiting for input() does not count)`
    : `An input() request waited ${seconds(limit.limitMs)} for an answer, its limit`;
}

/** The driver's error for a cell a limit interrupted, with the reason in front. */
export function withLimit(error: ErrorDetails | null, limit: LimitHit): ErrorDetails {
  const why = `${limitDescription(limit)}, so it was interrupted.`;
  if (!error) return kernelError(limitErrorType(limit), `${why} The cell caught the interrupt and finished.`);
  return { ...error, message: `${why} ${error.message}`, summary: `${why} ${error.summary}` };
}

function limitErrorType(limit: LimitHit): string {
  return limit.kind === 'active_time' ? 'ExecutionTimeLimit' : 'InputTimeout';
}

/** The cell did not stop within the grace period after an interrupt, so the kernel was killed. */
export function killedError(
  stoppedBy: 'limit' | 'interrupt' | 'cancel',
  limit: LimitHit | null,
  graceMs: number,
): ErrorDetails {
  const after = `did not stop within ${seconds(graceMs)} of being interrupted, so the kernel was killed and restarted; variables from earlier calls are gone.`;
  if (stoppedBy === 'limit' && limit) {
    return kernelError(limitErrorType(limit), `${limitDescription(limit)}, and it ${after}`);
  }
  if (stoppedBy === 'cancel')
    return kernelError('ExecutionCancelled', `The call was cancelled; the cell ${after}`);
  return kernelError('KeyboardInterrupt', `The cell was interrupted and ${after}`);
}

/** The kernel process died on its own during the cell. */
export function diedError(exit: ExitInfo): ErrorDetails {
  const hint =
    exit.signal === 'SIGKILL'
      ? ' It was killed from outside, often by the system running out of memory.'
      : exit.signal === 'SIGSEGV' || exit.signal === 'SIGBUS' || exit.signal === 'SIGABRT'
        ? ' A native extension crashed.'
        : '';
  const stderr = lastLines(exit.stderrTail.trim(), 2_000);
  const message =
    `The Python kernel died while running this cell (${describeExit(exit)}).${hint} ` +
    'Its variables are lost; the next call starts a fresh kernel, so re-run the setup the code needs.' +
    (stderr ? `\nThe kernel's last error output:\n${stderr}` : '');
  return kernelError('KernelDied', message);
}

/** The end of `text`, at most `max` characters, starting at a line (unless one line is longer). */
function lastLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = text.slice(-max);
  const newline = tail.indexOf('\n');
  return newline === -1 ? tail : tail.slice(newline + 1);
}
