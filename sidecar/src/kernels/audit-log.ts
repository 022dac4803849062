import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../log/logger';
import type { ExecutionResult, KernelLimits } from './kernel-types';

/** The most of stdout or stderr one audit line keeps (the start and the end). */
const MAX_OUTPUT_CHARS = 20_000;

/**
 * `executions.jsonl` of one kernel: one JSON line per execution (time, code, result, error details,
 * limits), appended synchronously so a crash of the sidecar right after loses nothing. Never throws.
 */
export class AuditLog {
  readonly file: string;

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
      // The code and output are the user's: readable by the owner only, like Cairn's own logs.
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (err) {
      this.logger.warn('could not append to the kernel audit log', { file: this.file, error: String(err) });
    }
  }
}

function clip(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const half = MAX_OUTPUT_CHARS / 2;
  return `${text.slice(0, half)}\n[... ${text.length - MAX_OUTPUT_CHARS} characters omitted ...]\n${text.slice(-half)}`;
}
