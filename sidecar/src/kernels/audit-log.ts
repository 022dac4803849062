import fs from 'node:fs';
import path from 'node:path';
import { makeOwnerOnlyDir, OWNER_ONLY_FILE_MODE } from '../config/owner-only-files';
import type { Logger } from '../log/logger';
import type { ExecutionResult, KernelLimits } from './kernel-types';

/** The most of stdout or stderr one audit line keeps (the start and the end). */
const MAX_OUTPUT_CHARS = 20_000;

/**
 * `executions.jsonl` of one kernel: one JSON line per execution (time, code, result, error details,
 * limits), written synchronously so a crash of the sidecar right after loses nothing. The file stays open
 * between lines (opening it per line cost a tenth of a `1+1` round trip) until close(). Never throws.
 */
export class AuditLog {
  readonly file: string;
  private fd: number | null = null;
  /** After close(): a late line (a cell ending with its kernel) is appended without keeping the file open. */
  private ended = false;

  constructor(
    dir: string,
    private readonly logger: Logger,
  ) {
    this.file = path.join(dir, 'executions.jsonl');
  }

  record(entry: { startedAt: Date; code: string; limits: KernelLimits; result: ExecutionResult }): void {
    const { result } = entry;
    const line = {
      time: entry.startedAt.toISOString(),
      execution_id: result.executionId,
      kernel: result.kernel,
      code: entry.code,
      success: result.success,
      return_value: result.returnValue?.text ?? null,
      error: result.error,
      stdout: clip(result.stdout),
      stderr: clip(result.stderr),
      artifacts: [
        ...(result.returnValue?.artifacts ?? []),
        ...result.displays.flatMap((d) => d.artifacts),
      ].map((a) => ({ id: a.id, mime: a.mime })),
      limits: { active_ms: entry.limits.activeMs, input_idle_ms: entry.limits.inputIdleMs },
      duration_ms: result.executionTimeMs,
      active_ms: result.activeTimeMs,
      limit_hit: result.limit ? { kind: result.limit.kind, action: result.limit.action } : null,
      state_lost: result.stateLost,
      kernel_exit: result.kernelExit
        ? { code: result.kernelExit.code, signal: result.kernelExit.signal }
        : null,
    };
    try {
      const text = `${JSON.stringify(line)}\n`;
      if (this.fd === null) {
        // The code and output are the user's: readable by the owner only, like Cairn's own logs.
        makeOwnerOnlyDir(path.dirname(this.file));
        if (this.ended) {
          fs.appendFileSync(this.file, text, { mode: OWNER_ONLY_FILE_MODE });
          return;
        }
        this.fd = fs.openSync(this.file, 'a', OWNER_ONLY_FILE_MODE);
      }
      fs.writeSync(this.fd, text);
    } catch (err) {
      this.release(); // opened afresh next time (the folder may have gone)
      this.logger.warn('could not append to the kernel audit log', { file: this.file, error: String(err) });
    }
  }

  /** Closes the file for good (the kernel has ended; on Windows an open file keeps its folder from going). */
  close(): void {
    this.ended = true;
    this.release();
  }

  private release(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed: nothing to release.
    }
    this.fd = null;
  }
}

function clip(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const half = MAX_OUTPUT_CHARS / 2;
  return `${text.slice(0, half)}\n[... ${text.length - MAX_OUTPUT_CHARS} characters omitted ...]\n${text.slice(-half)}`;
}
