import * as z from 'zod/mini';
import { ContextVersionInfo } from './context';
import { ElicitationInfo } from './elicitation';
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
  python_path: z.nullable(z.string()),
  /** `on`: Bash, Exec, kernels and process workers run confined to the project (bubblewrap on Linux). */
  sandbox: z._default(SandboxSetting, 'off'),
  /** `off` (with the sandbox on): what runs in the sandbox has no network. */
  sandbox_network: z._default(SandboxNetwork, 'on'),
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
  version: z.nullable(z.string()),
});
export type ProjectPython = z.infer<typeof ProjectPython>;

/** `tools`: the model calls tools; `code`: it acts by writing Python that runs in the session's kernel. */
export const SessionMode = z.enum(['tools', 'code']);
export type SessionMode = z.infer<typeof SessionMode>;

export const Session = z.object({
  id: z.string(),
  project_id: z.nullable(z.string()),
  title: z.string(),
  approval: ApprovalMode,
  mode: z._default(SessionMode, 'tools'),
  created_at: z.string(),
  updated_at: z.string(),
  running_turn_id: z.nullable(z.string()),
  /** A fork's parent session and the parent's turn that spawned it; null for a session of its own. */
  parent_session_id: z._default(z.nullable(z.string()), null),
  parent_turn_id: z._default(z.nullable(z.string()), null),
  /** The session and turn this one was branched from (its history up to and including that turn); null otherwise. */
  branched_from: z._default(z.nullable(z.object({ session_id: z.string(), turn_id: z.string() })), null),
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
  ordinal: z.number().check(z.int()),
  request_id: z.string(),
  prompt: z.string(),
  status: TurnStatus,
  error: z.nullable(ErrorInfo),
  usage: z.nullable(Usage),
  continuations: z.number().check(z.int()),
  created_at: z.string(),
  finished_at: z.nullable(z.string()),
  /** Code mode: the final answer (final_answer's argument, as text); null in tools mode or without one. */
  answer: z._default(z.nullable(z.string()), null),
  /** Estimated cost in US dollars from the prices of the model config the turn used; null where none are set. */
  cost: z._default(z.nullable(z.number()), null),
  /** `revert`: not a prompt but a restore of the project's files to before `reverted_turn_id`. */
  kind: z._default(TurnKind, 'prompt'),
  reverted_turn_id: z._default(z.nullable(z.string()), null),
  /** How many files the turn changed in the project; null while it runs or where its files were not recorded. */
  files_changed: z._default(z.nullable(z.number().check(z.int())), null),
  /** Whether the project's files were recorded before the turn (so it can be reverted). */
  files_recorded: z._default(z.boolean(), false),
  /** Why the turn's files were not recorded (too many files, unreadable…); null otherwise. */
  files_note: z._default(z.nullable(z.string()), null),
  /** For a revert: the files it could not put back, and why. */
  not_restored: z._default(z.array(FileNotRestored), []),
});
export type Turn = z.infer<typeof Turn>;

/** Anthropic content blocks pass through as they are (text, thinking, tool_use, tool_result). */
export const ContentBlock = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlock>;

export const Message = z.object({
  id: z.number().check(z.int()),
  turn_id: z.nullable(z.string()),
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
  preview: z.nullable(z.string()),
  /** The file holding the full result (the model is pointed to it when the result is large). */
  result_file: z.nullable(z.string()),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  duration_ms: z.nullable(z.number()),
  /** The call whose script started this one (through CAIRN_TOOL_ENDPOINT), or null for the model's. */
  parent_tool_call_id: z._default(z.nullable(z.string()), null),
  /** It was started with `is_wait` false (or a stream method): it runs on after its receipt. */
  background: z._default(z.boolean(), false),
  /** The exit code of the process it ran, when it ran one to its end. */
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  /** What the tool said about the call besides its text (signal, timeout, method, pieces, …). */
  meta: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ToolCallWithResult = z.extend(ToolCall, { result: z.nullable(z.string()) });
export type ToolCallWithResult = z.infer<typeof ToolCallWithResult>;

export const QuestionKind = z.enum(['question', 'approval', 'elicitation']);
export const QuestionStatus = z.enum(['pending', 'answered', 'closed']);

export const Question = z.object({
  id: z.string(),
  session_id: z.string(),
  turn_id: z.string(),
  tool_call_id: z.nullable(z.string()),
  kind: QuestionKind,
  question: z.string(),
  options: z.nullable(z.array(z.string())),
  /** For approvals: the tool that waits. */
  tool: z.nullable(z.object({ name: z.string(), input: z.unknown() })),
  /** For approvals: why it asks and the rule "always allow" would propose. */
  permission: z._default(z.nullable(ApprovalInfo), null),
  /** The fork that asks, when a fork's call asks in its parent's session (the session and turn are the parent's). */
  fork_id: z._default(z.nullable(z.string()), null),
  /** For elicitations: the MCP server asking and the form it asks for (`question` holds its message). */
  elicitation: z._default(z.nullable(ElicitationInfo), null),
  status: QuestionStatus,
  answer: z.nullable(z.string()),
  created_at: z.string(),
  answered_at: z.nullable(z.string()),
});
export type Question = z.infer<typeof Question>;

export const ModelConfig = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  base_url: z.nullable(z.string()),
  context_window: z.number().check(z.int()),
  max_tokens: z.number().check(z.int()),
  thinking_budget: z.nullable(z.number().check(z.int())),
  /** The fraction of the usable window at which compaction starts before a request; null: never automatically. */
  compact_threshold: z.nullable(z.number()),
  /** Prices in US dollars per million tokens, for cost estimates; null when not set. */
  price_input: z._default(z.nullable(z.number()), null),
  price_output: z._default(z.nullable(z.number()), null),
  price_cache_read: z._default(z.nullable(z.number()), null),
  price_cache_write: z._default(z.nullable(z.number()), null),
  active: z.boolean(),
  has_key: z.boolean(),
  created_at: z.string(),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

/** A turn with what happened in it: messages, tool calls, and the questions it asked (answered or not). */
export const TurnWithDetails = z.extend(Turn, {
  messages: z.array(Message),
  tool_calls: z.array(ToolCall),
  questions: z._default(z.array(Question), []),
  /** The compactions written during the turn or right after it, each placed after the message it followed. */
  compactions: z._default(z.array(ContextVersionInfo), []),
});
export type TurnWithDetails = z.infer<typeof TurnWithDetails>;
