import { z } from 'zod';

/**
 * The JSON-lines protocol between the sidecar and the Python driver (`driver/cairn_kernel.py`), version 1.
 * One schema per message; wire fields are snake_case and driver messages are converted to camelCase here,
 * once. Host messages are written in their wire form (they are built in one place, kernel-process.ts).
 */

export const DRIVER_PROTOCOL_VERSION = 1;

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

export const ExecuteMessage = z.object({ type: z.literal('execute'), id: z.string(), code: z.string() });
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

export const StreamMessage = z.object({
  type: z.literal('stream'),
  id: z.string(),
  name: z.enum(['stdout', 'stderr']),
  text: z.string(),
});
export type StreamMessage = z.output<typeof StreamMessage>;

export const DisplayMessage = z.object({ type: z.literal('display'), id: z.string(), data: MimeBundle });
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
    return_value: MimeBundle.nullable().default(null),
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
  stream: StreamMessage,
  display: DisplayMessage,
  input_request: InputRequestMessage,
  result: ResultMessage,
  reset_done: ResetDoneMessage,
  variables: VariablesMessage,
  log: LogMessage,
} as const;

export type DriverMessage =
  | ReadyMessage
  | StreamMessage
  | DisplayMessage
  | InputRequestMessage
  | ResultMessage
  | ResetDoneMessage
  | VariablesMessage
  | LogMessage;

export type ParsedLine =
  | { ok: true; message: DriverMessage }
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
    return { ok: false, problem: `unknown message type ${JSON.stringify(type)}`, raw };
  }
  const parsed = DRIVER_SCHEMAS[type as keyof typeof DRIVER_SCHEMAS].safeParse(raw);
  if (!parsed.success) return { ok: false, problem: z.prettifyError(parsed.error), raw };
  return { ok: true, message: parsed.data as DriverMessage };
}

/** One line of the channel for a host message: compact JSON and `\n`. */
export function encodeHostMessage(message: HostMessage): string {
  return `${JSON.stringify(HostMessage.parse(message))}\n`;
}

/** The result that ends an execution whose own result could not be read. */
export function protocolErrorResult(id: string, problem: string): ResultMessage {
  const message = `The kernel driver sent a result the sidecar could not read (${problem}).`;
  return {
    type: 'result',
    id,
    success: false,
    returnValue: null,
    error: {
      type: 'KernelProtocolError',
      message,
      line: null,
      column: null,
      snippet: null,
      pointer: null,
      summary: message,
      traceback: [],
    },
    executionTimeMs: 0,
  };
}
