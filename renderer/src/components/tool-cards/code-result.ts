// execute_code's result as the card reads it: the JSON object of sidecar/src/tools/builtin/kernel-result.ts,
// checked field by field so a result of another shape (an old call, a cut preview) is told apart and shown
// as text instead.
import type { KernelErrorDetails } from '../../../../sidecar/src/protocol';
import type { CellOutput } from '../../state/kernel-view';

/**
 * The kernel's structured error as the tool's result carries it: the traceback joined into one text (and
 * clipped), the summary beside it as `error`. `line` is 1-based in the cell's code; `pointer` is the
 * carets under `snippet`.
 */
export type CodeErrorDetails = Omit<KernelErrorDetails, 'summary' | 'traceback'> & { traceback: string };

export interface CodeFile {
  /** The artifact's id for GET /api/artifacts/:id, or null when the entry names none. */
  id: string | null;
  path: string;
  mime: string;
  bytes: number;
}

export interface CodeResult {
  success: boolean;
  stdout: string;
  stderr: string;
  returnValue: string | null;
  /** The one-line summary of the error. */
  error: string | null;
  errorDetails: CodeErrorDetails | null;
  executionTimeMs: number | null;
  files: CodeFile[];
  displays: string[];
  stateLost: string | null;
  limit: { kind: string; limitMs: number; action: string } | null;
  /** Text after the JSON object: the line a stopped call gets (sidecar/src/tools/runtime/call-outcome.ts `stopped()`). */
  note: string | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Artifacts are saved as `<id><ext>` (sidecar/src/kernels/artifact-store.ts); older results carry no id. */
const ARTIFACT_FILE = /^(art_[A-Za-z0-9_-]+)\.[a-z]+$/;

export function artifactId(file: { id?: unknown; path: string }): string | null {
  const given = str(file.id);
  if (given) return given;
  const base = file.path.split(/[\\/]/).pop() ?? '';
  return ARTIFACT_FILE.exec(base)?.[1] ?? null;
}

function parseFile(v: unknown): CodeFile | null {
  if (!isObject(v)) return null;
  const path = str(v.path);
  const mime = str(v.mime);
  if (path === null || mime === null) return null;
  return { id: artifactId({ id: v.id, path }), path, mime, bytes: num(v.bytes) ?? 0 };
}

function parseErrorDetails(v: unknown): CodeErrorDetails | null {
  if (!isObject(v)) return null;
  return {
    type: str(v.type) ?? 'Error',
    message: str(v.message) ?? '',
    line: num(v.line),
    column: num(v.column),
    snippet: str(v.snippet),
    pointer: str(v.pointer),
    traceback: str(v.traceback) ?? '',
  };
}

function parseLimit(v: unknown): CodeResult['limit'] {
  if (!isObject(v)) return null;
  const kind = str(v.kind);
  const limitMs = num(v.limit_ms);
  const action = str(v.action);
  return kind && limitMs !== null && action ? { kind, limitMs, action } : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The JSON object and any text after it. A cancelled, timed-out or interrupted call keeps what the tool
 * returned and adds a line saying why it stopped, after the object's closing `}` line.
 */
function splitNote(text: string): { value: unknown; note: string | null } {
  const whole = parseJson(text);
  if (whole !== undefined) return { value: whole, note: null };
  const end = text.lastIndexOf('\n}\n');
  if (end < 0) return { value: undefined, note: null };
  const value = parseJson(text.slice(0, end + 2));
  const note = text.slice(end + 3).trim();
  return { value, note: note === '' ? null : note };
}

/** The result, or null when the text is not execute_code's JSON object (then the card shows it as text). */
export function parseCodeResult(text: string): CodeResult | null {
  const { value, note } = splitNote(text);
  // The fields every execute_code result has; anything else is not ours to lay out.
  if (!isObject(value) || typeof value.success !== 'boolean') return null;
  if (typeof value.stdout !== 'string' || typeof value.stderr !== 'string' || !Array.isArray(value.files)) {
    return null;
  }
  return {
    success: value.success,
    stdout: value.stdout,
    stderr: value.stderr,
    returnValue: str(value.return_value),
    error: str(value.error),
    errorDetails: parseErrorDetails(value.error_details),
    executionTimeMs: num(value.execution_time_ms),
    files: value.files.flatMap((f) => parseFile(f) ?? []),
    displays: Array.isArray(value.displays) ? value.displays.flatMap((d) => str(d) ?? []) : [],
    stateLost: str(value.state_lost),
    limit: parseLimit(value.limit),
    note,
  };
}

/** How the card shows a file the code produced. */
export type FileView = 'image' | 'html' | 'download';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml']);

export function fileView(file: CodeFile): FileView {
  if (file.id === null) return 'download';
  if (IMAGE_TYPES.has(file.mime)) return 'image';
  if (file.mime === 'text/html') return 'html';
  return 'download';
}

/** The file name a download gets: the saved file's own name (its id and extension). */
export function downloadName(file: CodeFile): string {
  return file.path.split(/[\\/]/).pop() || 'output';
}

/** A running cell's stdout and stderr so far, each joined in the order it arrived. */
export function cellStreams(outputs: readonly CellOutput[]): { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  for (const out of outputs) {
    if (out.kind !== 'stream') continue;
    if (out.stream === 'stdout') stdout += out.text;
    else stderr += out.text;
  }
  return { stdout, stderr };
}
