import { z } from 'zod';

/**
 * The protocol between the sidecar and the Python driver (`driver/cairn_kernel.py`), version 2: JSON lines,
 * except that a `stream` line is a header followed by its text as `bytes` raw UTF-8 bytes (no escaping, no
 * JSON.parse of output). One schema per message; wire fields are snake_case and driver messages are
 * converted to camelCase here, once. Host messages are written in their wire form (they are built in one
 * place, kernel-process.ts).
 */

export const DRIVER_PROTOCOL_VERSION = 2;

/**
 * A MIME bundle (`text/plain`, `image/png` as base64, `text/html`, ...). Values that are not strings are
 * dropped rather than failing the whole message: a `result` that failed validation would leave the
 * execution waiting forever.
 */
export const MimeBundle = z
  .record(z.string(), z.unknown())
  .transform((data) =>
    Object.fromEntries(
      Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    ),
  );
export type MimeBundle = z.output<typeof MimeBundle>;

/**
 * The MIME types the local driver emits (its MIME_TYPES). The channel is writable by user code, so anything
 * else (image/svg+xml, application/javascript, ...) is forged or a bug, and never reaches a caller.
 */
export const DRIVER_MIME_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/html',
  'text/markdown',
  'image/png',
]);

const BASE64 = /^[A-Za-z0-9+/=\r\n]*$/;

/** Whether a driver bundle may carry this entry: an allowed type, a string, and PNG as base64 only. */
function isDriverMimeEntry(mime: string, value: unknown): value is string {
  if (!DRIVER_MIME_TYPES.has(mime) || typeof value !== 'string') return false;
  return mime !== 'image/png' || BASE64.test(value);
}

/** A MimeBundle from the local driver: only DRIVER_MIME_TYPES; parseDriverLine reports what it drops. */
export const DriverMimeBundle = z
  .record(z.string(), z.unknown())
  .transform((data) =>
    Object.fromEntries(
      Object.entries(data).filter((entry): entry is [string, string] =>
        isDriverMimeEntry(entry[0], entry[1]),
      ),
    ),
  );

/** A structured error: what a model needs to fix the cell, and the user's own frames only. */
export const ErrorDetails = z.object({
  type: z.string(),
  message: z.string(),
  line: z.number().int().nullable().default(null),
  column: z.number().int().nullable().default(null),
  snippet: z.string().nullable().default(null),
  pointer: z.string().nullable().default(null),
  summary: z.string(),
  traceback: z.array(z.string()).default([]),
});
export type ErrorDetails = z.output<typeof ErrorDetails>;

// ---- host → driver ----

export const ExecuteMessage = z.object({
  type: z.literal('execute'),
  id: z.string(),
  code: z.string(),
  /** CAIRN_TOOL_TOKEN for this cell alone (an agent's cell); the driver restores the environment after. */
  tool_token: z.string().optional(),
});
export const InputReplyMessage = z.object({
  type: z.literal('input_reply'),
  request_id: z.string(),
  value: z.string(),
});
export const ResetMessage = z.object({ type: z.literal('reset'), id: z.string() });
export const ListVariablesMessage = z.object({ type: z.literal('list_variables'), id: z.string() });
export const InterruptMessage = z.object({ type: z.literal('interrupt') });
export const ShutdownMessage = z.object({ type: z.literal('shutdown') });

export const HostMessage = z.discriminatedUnion('type', [
  ExecuteMessage,
  InputReplyMessage,
  ResetMessage,
  ListVariablesMessage,
  InterruptMessage,
  ShutdownMessage,
]);
export type HostMessage = z.input<typeof HostMessage>;

// ---- driver → host ----

export const ReadyMessage = z.object({
  type: z.literal('ready'),
  protocol: z.number().int(),
  python: z.string(),
  implementation: z.string(),
  ipython: z.boolean(),
  pid: z.number().int(),
});
export type ReadyMessage = z.output<typeof ReadyMessage>;

/** The line before a stream's text: the next `bytes` bytes on the channel are that text, as UTF-8. */
export const StreamHeader = z.object({
  type: z.literal('stream'),
  id: z.string(),
  name: z.enum(['stdout', 'stderr']),
  bytes: z.number().int().nonnegative(),
});
export type StreamHeader = z.output<typeof StreamHeader>;

export const DisplayMessage = z.object({
  type: z.literal('display'),
  id: z.string(),
  data: DriverMimeBundle,
});
export type DisplayMessage = z.output<typeof DisplayMessage>;

export const InputRequestMessage = z
  .object({
    type: z.literal('input_request'),
    id: z.string(),
    request_id: z.string(),
    prompt: z.string(),
    password: z.boolean().default(false),
  })
  .transform(({ request_id, ...rest }) => ({ ...rest, requestId: request_id }));
export type InputRequestMessage = z.output<typeof InputRequestMessage>;

export const ResultMessage = z
  .object({
    type: z.literal('result'),
    id: z.string(),
    success: z.boolean(),
    return_value: DriverMimeBundle.nullable().default(null),
    error: ErrorDetails.nullable().default(null),
    execution_time_ms: z.number().nonnegative(),
  })
  .transform(({ return_value, execution_time_ms, ...rest }) => ({
    ...rest,
    returnValue: return_value,
    executionTimeMs: execution_time_ms,
  }));
export type ResultMessage = z.output<typeof ResultMessage>;

export const ResetDoneMessage = z.object({ type: z.literal('reset_done'), id: z.string() });
export type ResetDoneMessage = z.output<typeof ResetDoneMessage>;

export const VariableInfo = z.object({ name: z.string(), type: z.string(), repr: z.string() });
export type VariableInfo = z.output<typeof VariableInfo>;

export const VariablesMessage = z.object({
  type: z.literal('variables'),
  id: z.string(),
  variables: z.array(VariableInfo),
});
export type VariablesMessage = z.output<typeof VariablesMessage>;

export const LogMessage = z.object({
  type: z.literal('log'),
  level: z.string(),
  message: z.string(),
});
export type LogMessage = z.output<typeof LogMessage>;

/**
 * Every message the driver sends. Not a discriminatedUnion: two members carry a transform, so the union
 * is picked by `type` in parseDriverLine instead.
 */
const DRIVER_SCHEMAS = {
  ready: ReadyMessage,
  stream: StreamHeader,
  display: DisplayMessage,
  input_request: InputRequestMessage,
  result: ResultMessage,
  reset_done: ResetDoneMessage,
  variables: VariablesMessage,
  log: LogMessage,
} as const;

export type DriverMessage =
  | ReadyMessage
  | StreamHeader
  | DisplayMessage
  | InputRequestMessage
  | ResultMessage
  | ResetDoneMessage
  | VariablesMessage
  | LogMessage;

export type ParsedLine =
  /** `dropped`: the MIME types left out of its bundle (not the driver's, or PNG that is not base64). */
  | { ok: true; message: DriverMessage; dropped: string[] }
  /** `raw` is the JSON value when the line was JSON at all, so a broken `result` can still end its call. */
  | { ok: false; problem: string; raw: unknown };

/** Parses and validates one line from the driver's channel; never throws. */
export function parseDriverLine(line: string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, problem: 'not JSON', raw: undefined };
  }
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(DRIVER_SCHEMAS, type)) {
    return {
      ok: false,
      problem: `unknown message type ${clip(JSON.stringify(type) ?? 'undefined', 100)}`,
      raw,
    };
  }
  const parsed = DRIVER_SCHEMAS[type as keyof typeof DRIVER_SCHEMAS].safeParse(raw);
  if (!parsed.success) return { ok: false, problem: clip(z.prettifyError(parsed.error), 500), raw };
  return { ok: true, message: parsed.data as DriverMessage, dropped: droppedMimeTypes(raw) };
}

/** The MIME types DriverMimeBundle left out of a display's or result's bundle (clipped, for a log line). */
function droppedMimeTypes(raw: unknown): string[] {
  const message = raw as { type?: unknown; data?: unknown; return_value?: unknown };
  const bundle =
    message.type === 'display' ? message.data : message.type === 'result' ? message.return_value : null;
  if (typeof bundle !== 'object' || bundle === null) return [];
  return Object.entries(bundle)
    .filter(([mime, value]) => !isDriverMimeEntry(mime, value))
    .slice(0, 20)
    .map(([mime]) => clip(mime, 100));
}

/** `type` and `id` from the first bytes of a line too long to parse: the driver writes them first. */
export function messageHead(head: string): { type: string | undefined; id: string | undefined } {
  return {
    type: /"type"\s*:\s*"([a-z_]{1,40})"/.exec(head)?.[1],
    id: /"id"\s*:\s*"([^"\\]{1,200})"/.exec(head)?.[1],
  };
}

/** At most `max` characters of text that came from the driver, marked when cut: it may be huge or forged. */
export function clip(text: string, max = 1024): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** One line of the channel for a host message: compact JSON and `\n`. */
export function encodeHostMessage(message: HostMessage): string {
  return `${JSON.stringify(HostMessage.parse(message))}\n`;
}

/** The result that ends an execution whose own result could not be read. */
export function protocolErrorResult(id: string, problem: string): ResultMessage {
  return kernelProtocolError(id, `The kernel driver sent a result the sidecar could not read (${problem}).`);
}

/** The result that ends an execution whose result or display was over the channel's line limit. */
export function outputTooLargeResult(id: string, what: string, limitBytes: number): ResultMessage {
  const mib = Math.round(limitBytes / (1024 * 1024));
  return kernelProtocolError(
    id,
    `The cell's ${what} was larger than ${mib} MiB and was dropped. The kernel and its variables are kept; ` +
      'return or display a smaller part (a slice, a summary, or write it to a file) instead.',
  );
}

function kernelProtocolError(id: string, message: string): ResultMessage {
  return {
    type: 'result',
    id,
    success: false,
    returnValue: null,
    error: kernelError('KernelProtocolError', message),
    executionTimeMs: 0,
  };
}

/** The error details of something that went wrong around the cell rather than in it (no line, no frames). */
export function kernelError(type: string, message: string): ErrorDetails {
  return {
    type,
    message,
    line: null,
    column: null,
    snippet: null,
    pointer: null,
    summary: message,
    traceback: [],
  };
}
