import * as z from 'zod/mini';
import { ToolCall, ToolCallStatus } from './entities';

/**
 * The shapes of the tool runtime: background calls and their output pieces, loaded tools, and the
 * script endpoint's messages (what `cairn_tools` and `cairn tool` send and get back).
 */

/** How one method of a tool runs: `batch` answers once; `stream` always runs in the background, in pieces. */
export const ToolMethodKind = z.enum(['batch', 'stream']);
export type ToolMethodKind = z.infer<typeof ToolMethodKind>;

export const ToolMethodInfo = z.object({
  name: z.string(),
  kind: ToolMethodKind,
  description: z.string(),
});
export type ToolMethodInfo = z.infer<typeof ToolMethodInfo>;

/** Where a loaded tool runs: in the sidecar itself, or in a worker process of its own. */
export const LoadedToolMode = z.enum(['local', 'process']);
export type LoadedToolMode = z.infer<typeof LoadedToolMode>;

/** A tool the agent loaded from a file of the project (LoadTool). */
export const LoadedTool = z.object({
  name: z.string(),
  description: z.string(),
  /** The module's path as given, and as resolved inside the project. */
  path: z.string(),
  language: z.enum(['javascript', 'python']),
  mode: LoadedToolMode,
  methods: z.array(ToolMethodInfo),
  /** `crashed`: its worker ended; its calls fail until it is loaded again. */
  state: z.enum(['ready', 'crashed']),
  error: z.nullable(z.string()),
  /** The worker's process id (process mode), null in the sidecar. */
  pid: z.nullable(z.number().check(z.int())),
  loaded_at: z.string(),
  /** The tool call (LoadTool) that loaded it. */
  tool_call_id: z.string(),
});
export type LoadedTool = z.infer<typeof LoadedTool>;

/** A session's tool runtime as the UI shows it: its background calls (running first) and loaded tools. */
export const ToolRuntimeInfo = z.object({
  calls: z.array(ToolCall),
  loaded_tools: z.array(LoadedTool),
});
export type ToolRuntimeInfo = z.infer<typeof ToolRuntimeInfo>;

/** One piece of a call's streamed output, `NNNN.txt` in its folder. */
export const OutputPiece = z.object({ number: z.number().check(z.int(), z.nonnegative()), text: z.string() });
export type OutputPiece = z.infer<typeof OutputPiece>;

/**
 * A call's output pieces: the newest, or those after a number. Only the newest 20 are kept: `missing`
 * counts pieces asked for that are gone.
 */
export const ToolCallOutput = z.object({
  call_id: z.string(),
  status: ToolCallStatus,
  pieces: z.array(OutputPiece),
  /** Pass as `after` to read on; null when the call has written no piece yet. */
  next_after: z.nullable(z.number().check(z.int())),
  /** Pieces between `after` (or the start) and the first returned that this reply leaves out (rotated away, or older than the newest that fit). */
  missing: z.number().check(z.int(), z.nonnegative()),
  /** Whether more pieces may come (the call still runs). */
  running: z.boolean(),
});
export type ToolCallOutput = z.infer<typeof ToolCallOutput>;

export const ToolCallOutputQuery = z.object({
  after: z.optional(z.coerce.number().check(z.int(), z.gte(-1))),
});
export type ToolCallOutputQuery = z.infer<typeof ToolCallOutputQuery>;

// ---- the script endpoint (CAIRN_TOOL_ENDPOINT): what scripts send, and what they get back ----

/** The largest message either way; a bigger one is refused, never cut. */
export const SCRIPT_MESSAGE_LIMIT = 8 * 1024 * 1024;

/** POST /v1/call: a tool call from a script, through the same dispatcher as the model's. */
export const ScriptCallRequest = z.object({
  name: z.string().check(z.minLength(1, 'name is required')),
  arguments: z._default(z.record(z.string(), z.unknown()), {}),
  /** For a tool with several methods: the method, and an id passed to the tool as given. */
  method: z.optional(z.string().check(z.minLength(1))),
  union_id: z.optional(z.string()),
  /** false: return the receipt at once and let the call run on in the background. */
  is_wait: z._default(z.boolean(), true),
});
export type ScriptCallRequest = z.input<typeof ScriptCallRequest>;

/** POST /v1/status, /v1/cancel, /v1/output. */
export const ScriptCallIdRequest = z.object({
  call_id: z.string().check(z.minLength(1, 'call_id is required')),
});
export const ScriptOutputRequest = z.extend(ScriptCallIdRequest, {
  after: z.optional(z.number().check(z.int(), z.gte(-1))),
});

/**
 * What every script request gets back (HTTP 200): a denied or failed call is a reply with `is_error` true.
 * `content` is the tool's text (a receipt as JSON for a call that runs on in the background).
 */
export const ScriptReply = z.object({
  call_id: z.nullable(z.string()),
  status: z.nullable(ToolCallStatus),
  result_dir: z.nullable(z.string()),
  content: z.string(),
  is_error: z.boolean(),
  meta: z.record(z.string(), z.unknown()),
});
export type ScriptReply = z.infer<typeof ScriptReply>;

/** The receipt of a call that runs on in the background, as the model and scripts read it. */
export const BackgroundReceipt = z.object({
  call_id: z.string(),
  status: ToolCallStatus,
  result_dir: z.string(),
});
export type BackgroundReceipt = z.infer<typeof BackgroundReceipt>;
