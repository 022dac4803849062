import { z } from 'zod';
import { ContextVersionInfo } from './context';
import { ErrorInfo } from './errors';
import { ApprovalInfo, ApprovalMode, SandboxNetwork, SandboxSetting } from './permissions';

/** Wire shapes of the things the API returns. One schema per shape; types derive from them. */

export const Health = z.object({ ok: z.literal(true), name: z.literal('cairn'), version: z.string() });
export type Health = z.infer<typeof Health>;

export const Capabilities = z.object({
  mode: z.enum(['local', 'remote', 'conversation-only']),
  projects: z.boolean(),
  shell: z.boolean(),
  files: z.boolean(),
  kernels: z.boolean(),
  mcp: z.boolean(),
  version: z.string(),
});
export type Capabilities = z.infer<typeof Capabilities>;

export const Project = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_opened_at: z.string(),
  /** The interpreter set for the project's Python kernels; null: its `.venv`/`venv`, else `python3`. */
  python_path: z.string().nullable(),
  /** `on`: Bash, Exec, kernels and process workers run confined to the project (bubblewrap on Linux). */
  sandbox: SandboxSetting.default('off'),
  /** `off` (with the sandbox on): what runs in the sandbox has no network. */
  sandbox_network: SandboxNetwork.default('on'),
});
export type Project = z.infer<typeof Project>;

/**
 * The interpreter a project's kernels would start with, and why that one: `environment` (CAIRN_KERNEL_PYTHON
 * on the server), `project` (its python_path), `venv` (its `.venv`/`venv`) or `path` (`python3` on PATH).
 */
export const ProjectPython = z.object({
  command: z.string(),
  args: z.array(z.string()),
  source: z.enum(['environment', 'project', 'venv', 'path']),
  version: z.string().nullable(),
});
export type ProjectPython = z.infer<typeof ProjectPython>;

/** `tools`: the model calls tools; `code`: it acts by writing Python that runs in the session's kernel. */
export const SessionMode = z.enum(['tools', 'code']);
export type SessionMode = z.infer<typeof SessionMode>;

export const Session = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  title: z.string(),
  approval: ApprovalMode,
  mode: SessionMode.default('tools'),
  created_at: z.string(),
  updated_at: z.string(),
  running_turn_id: z.string().nullable(),
  /** A fork's parent session and the parent's turn that spawned it; null for a session of its own. */
  parent_session_id: z.string().nullable().default(null),
  parent_turn_id: z.string().nullable().default(null),
  /** The session and turn this one was branched from (its history up to and including that turn); null otherwise. */
  branched_from: z.object({ session_id: z.string(), turn_id: z.string() }).nullable().default(null),
});
export type Session = z.infer<typeof Session>;

export const TurnStatus = z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/** A turn's tokens over all its requests; input_tokens counts only what no cache served or stored. */
export const Usage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  /** Read from the prompt cache (billed at a tenth of input). */
  cache_read_input_tokens: z.number(),
  /** Written to the prompt cache (billed at 1.25× input). */
  cache_creation_input_tokens: z.number(),
});
export type Usage = z.infer<typeof Usage>;

/** A file a revert could not put back, and why. */
export const FileNotRestored = z.object({ path: z.string(), reason: z.string() });
export type FileNotRestored = z.infer<typeof FileNotRestored>;

export const TurnKind = z.enum(['prompt', 'revert']);
export type TurnKind = z.infer<typeof TurnKind>;

export const Turn = z.object({
  id: z.string(),
  session_id: z.string(),
  ordinal: z.number().int(),
  request_id: z.string(),
  prompt: z.string(),
  status: TurnStatus,
  error: ErrorInfo.nullable(),
  usage: Usage.nullable(),
  continuations: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Code mode: the final answer (final_answer's argument, as text); null in tools mode or without one. */
  answer: z.string().nullable().default(null),
  /** Estimated cost in US dollars from the prices of the model config the turn used; null where none are set. */
  cost: z.number().nullable().default(null),
  /** `revert`: not a prompt but a restore of the project's files to before `reverted_turn_id`. */
  kind: TurnKind.default('prompt'),
  reverted_turn_id: z.string().nullable().default(null),
  /** How many files the turn changed in the project; null while it runs or where its files were not recorded. */
  files_changed: z.number().int().nullable().default(null),
  /** Whether the project's files were recorded before the turn (so it can be reverted). */
  files_recorded: z.boolean().default(false),
  /** Why the turn's files were not recorded (too many files, unreadable…); null otherwise. */
  files_note: z.string().nullable().default(null),
  /** For a revert: the files it could not put back, and why. */
  not_restored: z.array(FileNotRestored).default([]),
});
export type Turn = z.infer<typeof Turn>;

/** Anthropic content blocks pass through as they are (text, thinking, tool_use, tool_result). */
export const ContentBlock = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlock>;

export const Message = z.object({
  id: z.number().int(),
  turn_id: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  content: z.array(ContentBlock),
  /** Instructions Cairn added on its own (continue, make it smaller, synthetic results). */
  internal: z.boolean(),
  created_at: z.string(),
});
export type Message = z.infer<typeof Message>;

export const ToolCallStatus = z.enum([
  'waiting_approval',
  'running',
  'completed',
  'failed',
  'denied',
  'cancelled',
  'interrupted',
]);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

export const ToolCall = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string(),
  tool_use_id: z.string(),
  name: z.string(),
  input: z.unknown(),
  status: ToolCallStatus,
  is_error: z.boolean(),
  preview: z.string().nullable(),
  /** The file holding the full result (the model is pointed to it when the result is large). */
  result_file: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  /** The call whose script started this one (through CAIRN_TOOL_ENDPOINT), or null for the model's. */
  parent_tool_call_id: z.string().nullable().default(null),
  /** It was started with `is_wait` false (or a stream method): it runs on after its receipt. */
  background: z.boolean().default(false),
  /** The exit code of the process it ran, when it ran one to its end. */
  exit_code: z.number().int().nullable().default(null),
  /** What the tool said about the call besides its text (signal, timeout, method, pieces, …). */
  meta: z.record(z.string(), z.unknown()).nullable().default(null),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ToolCallWithResult = ToolCall.extend({ result: z.string().nullable() });
export type ToolCallWithResult = z.infer<typeof ToolCallWithResult>;

export const QuestionKind = z.enum(['question', 'approval']);
export const QuestionStatus = z.enum(['pending', 'answered', 'closed']);

export const Question = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string(),
  tool_call_id: z.string().nullable(),
  kind: QuestionKind,
  question: z.string(),
  options: z.array(z.string()).nullable(),
  /** For approvals: the tool that waits. */
  tool: z.object({ name: z.string(), input: z.unknown() }).nullable(),
  /** For approvals: why it asks and the rule "always allow" would propose. */
  permission: ApprovalInfo.nullable().default(null),
  /** The fork that asks, when a fork's call asks in its parent's session (the session and turn are the parent's). */
  fork_id: z.string().nullable().default(null),
  status: QuestionStatus,
  answer: z.string().nullable(),
  created_at: z.string(),
  answered_at: z.string().nullable(),
});
export type Question = z.infer<typeof Question>;

export const ModelConfig = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  base_url: z.string().nullable(),
  context_window: z.number().int(),
  max_tokens: z.number().int(),
  thinking_budget: z.number().int().nullable(),
  /** The fraction of the usable window at which compaction starts before a request; null: never automatically. */
  compact_threshold: z.number().nullable(),
  /** Prices in US dollars per million tokens, for cost estimates; null when not set. */
  price_input: z.number().nullable().default(null),
  price_output: z.number().nullable().default(null),
  price_cache_read: z.number().nullable().default(null),
  price_cache_write: z.number().nullable().default(null),
  active: z.boolean(),
  has_key: z.boolean(),
  created_at: z.string(),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

/** A turn with what happened in it: messages, tool calls, and the questions it asked (answered or not). */
export const TurnWithDetails = Turn.extend({
  messages: z.array(Message),
  tool_calls: z.array(ToolCall),
  questions: z.array(Question).default([]),
  /** The compactions written during the turn or right after it, each placed after the message it followed. */
  compactions: z.array(ContextVersionInfo).default([]),
});
export type TurnWithDetails = z.infer<typeof TurnWithDetails>;
