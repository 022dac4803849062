import path from 'node:path';
import { writeOwnerOnlyFile } from '../../config/owner-only-files';
import type { ExecutionResult } from '../../kernels/kernel-types';
import type { ToolContext, ToolResult } from '../tool';

/**
 * The most of each part of a result the model gets inline. Together they stay under the dispatcher's limit
 * for results, so the structure (success, error) always arrives whole; the rest of a long stream is saved
 * beside the call's result and named.
 */
const LIMITS = { stdout: 6_000, stderr: 3_000, returnValue: 2_000, display: 1_000, traceback: 2_500 };

/** The model-facing result of execute_code: one JSON object with the issue's field names. */
export function executionToolResult(result: ExecutionResult, ctx: ToolContext): ToolResult {
  // The id lets a client fetch the file (GET /api/artifacts/:id); the path is what the model can read.
  const files = [
    ...result.displays.flatMap((d) => d.artifacts),
    ...(result.returnValue?.artifacts ?? []),
  ].map((a) => ({ id: a.id, path: a.path, mime: a.mime, bytes: a.bytes }));
  const displays = result.displays.flatMap((d) => (d.text ? [clip(d.text, LIMITS.display)] : []));
  const error = result.error;
  const body: Record<string, unknown> = {
    success: result.success,
    stdout: stream('stdout', result.stdout, LIMITS.stdout, ctx),
    stderr: stream('stderr', result.stderr, LIMITS.stderr, ctx),
    return_value: result.returnValue?.text != null ? clip(result.returnValue.text, LIMITS.returnValue) : null,
    error: error ? error.summary : null,
    error_details: error
      ? {
          type: error.type,
          message: error.message,
          line: error.line,
          column: error.column,
          snippet: error.snippet,
          pointer: error.pointer,
          traceback: clip(error.traceback.join('\n'), LIMITS.traceback),
        }
      : null,
    execution_time_ms: Math.round(result.executionTimeMs),
    files,
    kernel: result.kernel,
  };
  if (displays.length > 0) body.displays = displays;
  if (result.stateLost) body.state_lost = result.stateLost;
  if (result.limit) {
    body.limit = { kind: result.limit.kind, limit_ms: result.limit.limitMs, action: result.limit.action };
  }
  // The kinds of rich output, so the conversation can say "(image)" before anyone opens the call.
  const meta = files.length > 0 ? { outputs: [...new Set(files.map((f) => f.mime))] } : undefined;
  return { content: JSON.stringify(body, null, 1), isError: !result.success, ...(meta ? { meta } : {}) };
}

/** A stream as the model sees it: whole when short, else its start and end and the file with all of it. */
function stream(name: 'stdout' | 'stderr', text: string, max: number, ctx: ToolContext): string {
  if (text.length <= max) return text;
  const file = path.join(ctx.sessionResultsDir, ctx.toolCallId, `${name}.txt`);
  let where = `the whole ${name} is in ${file}; read parts of it with Read (offset, limit)`;
  try {
    writeOwnerOnlyFile(file, text);
  } catch {
    where = `the whole ${name} could not be saved`;
  }
  return clip(text, max, where);
}

/** The start and the end of a long text, with what was left out in between. */
export function clip(text: string, max: number, note = ''): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.4);
  const tail = max - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[... ${omitted} characters omitted${note ? `; ${note}` : ''} ...]\n${text.slice(-tail)}`;
}
