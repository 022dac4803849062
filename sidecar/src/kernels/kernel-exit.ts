/** How a kernel process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The driver's own stderr (not user output, which arrives as stream messages), for diagnostics. */
  stderrTail: string;
  /** Set when the exit was asked for (shutdown or kill), so it is not reported as a crash. */
  requested: 'shutdown' | 'kill' | null;
}

/** The driver exited while a request was pending (a crash, or a requested shutdown or kill). */
export class KernelExitedError extends Error {
  readonly exit: ExitInfo;
  constructor(exit: ExitInfo) {
    super(`The Python kernel exited (${describeExit(exit)}).`);
    this.name = 'KernelExitedError';
    this.exit = exit;
  }
}

export function describeExit(exit: Pick<ExitInfo, 'code' | 'signal'>): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  return exit.code === null ? 'exit status unknown' : `exit code ${exit.code}`;
}
