import * as z from 'zod/mini';
import { CompactionLevel, CompactionReason, Experience, StructuredSummary } from './context';
import { FileNotRestored, Message, Question, ToolCallStatus, Usage } from './entities';
import { ErrorInfo } from './errors';
import { eventBase as base } from './event-base';
import { ForkInfo } from './forks';
import {
  KernelDiedEvent,
  KernelDisplayEvent,
  KernelErrorEvent,
  KernelExecutionStartedEvent,
  KernelInputRequestEvent,
  KernelResultEvent,
  KernelStartedEvent,
  KernelStreamEvent,
} from './kernel-events';
import { McpConnectionState, McpLogLevel } from './mcp';
import { LoadedTool } from './tool-runtime';

/** The journal's events: one discriminated union on `type`; the WebSocket relays them as they are. */

export const TurnStartedEvent = z.object({
  ...base,
  type: z.literal('turn.started'),
  ordinal: z.number().check(z.int()),
  prompt: z.string(),
});
export const MessageDeltaEvent = z.object({
  ...base,
  type: z.literal('message.delta'),
  index: z.number().check(z.int()),
  text: z.string(),
});
export const ThinkingDeltaEvent = z.object({
  ...base,
  type: z.literal('thinking.delta'),
  index: z.number().check(z.int()),
  text: z.string(),
});
export const MessageCompletedEvent = z.object({
  ...base,
  type: z.literal('message.completed'),
  message: Message,
  stop_reason: z.nullable(z.string()),
});
export const ToolStartedEvent = z.object({
  ...base,
  type: z.literal('tool.started'),
  tool_call_id: z.string(),
  tool_use_id: z.string(),
  name: z.string(),
  input: z.unknown(),
  /** `waiting_approval` when the call waits for the user first, else `running`. */
  status: z._default(z.enum(['running', 'waiting_approval']), 'running'),
  /** The call whose script started this one, or null for the model's own calls. */
  parent_tool_call_id: z._default(z.nullable(z.string()), null),
  /** Started with `is_wait` false (or a stream method): it runs on in the background after its receipt. */
  background: z._default(z.boolean(), false),
});
/** A call that waited for the user's approval now runs. */
export const ToolRunningEvent = z.object({
  ...base,
  type: z.literal('tool.running'),
  tool_call_id: z.string(),
});
export const ToolOutputEvent = z.object({
  ...base,
  type: z.literal('tool.output'),
  tool_call_id: z.string(),
  stream: z.enum(['stdout', 'stderr']),
  text: z.string(),
});
/**
 * How far a running call has got, as its tool reports it (an MCP server's progress notifications): a few a
 * second at most per call, and the last one before it ends.
 */
export const ToolProgressEvent = z.object({
  ...base,
  type: z.literal('tool.progress'),
  tool_call_id: z.string(),
  progress: z.number(),
  /** The amount `progress` counts towards, when the tool knows it. */
  total: z.nullable(z.number()),
  message: z.nullable(z.string()),
});
export const ToolFinishedEvent = z.object({
  ...base,
  type: z.literal('tool.finished'),
  tool_call_id: z.string(),
  status: ToolCallStatus,
  is_error: z.boolean(),
  duration_ms: z.number(),
  preview: z.string(),
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  /** What the tool said about the call besides its text (as ToolCall.meta), so a card can describe it. */
  meta: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
});
/** A tool was loaded into the session (LoadTool), or a loaded tool's worker ended. */
export const ToolLoadedEvent = z.object({
  ...base,
  type: z.literal('tool.loaded'),
  tool: LoadedTool,
});
export const QuestionRequiredEvent = z.object({
  ...base,
  type: z.literal('question.required'),
  question: Question,
});
export const QuestionAnsweredEvent = z.object({
  ...base,
  type: z.literal('question.answered'),
  question_id: z.string(),
  answer: z.string(),
});
export const QuestionClosedEvent = z.object({
  ...base,
  type: z.literal('question.closed'),
  question_id: z.string(),
  reason: z.string(),
});
export const LlmContinuationEvent = z.object({
  ...base,
  type: z.literal('llm.continuation'),
  reason: z.enum(['max_tokens', 'truncated_tool_call']),
  attempt: z.number().check(z.int()),
  max_attempts: z.number().check(z.int()),
});
export const TurnCompletedEvent = z.object({
  ...base,
  type: z.literal('turn.completed'),
  usage: z.nullable(Usage),
});
export const TurnFailedEvent = z.object({ ...base, type: z.literal('turn.failed'), error: ErrorInfo });
export const TurnCancelledEvent = z.object({ ...base, type: z.literal('turn.cancelled') });
export const TurnInterruptedEvent = z.object({
  ...base,
  type: z.literal('turn.interrupted'),
  reason: z.string(),
});

/**
 * The project's files were restored to before `reverted_turn_id` (undoing it and every later turn); `turn_id`
 * is the revert's own turn, which can itself be reverted.
 */
export const FilesRevertedEvent = z.object({
  ...base,
  type: z.literal('files.reverted'),
  ordinal: z.number().check(z.int()),
  reverted_turn_id: z.string(),
  restored: z.array(z.string()),
  not_restored: z.array(FileNotRestored),
});

/** An MCP server of the session changed state: starting for a turn, connected, failed, crashed, stopped. */
export const McpServerEvent = z.object({
  ...base,
  type: z.literal('mcp.server'),
  server_id: z.string(),
  name: z.string(),
  state: McpConnectionState,
  /** Why it failed or crashed, in words. */
  error: z.nullable(z.string()),
  /** Where the user logs in, while the state is `auth_required` (absent in journals older than logins). */
  authorization_url: z._default(z.nullable(z.string()), null),
  /** The tools the agent has from it (0 unless connected). */
  tools: z.number().check(z.int()),
});

/**
 * A log message of an MCP server of the session (`notifications/message`). Bounded: a few a second per
 * server and a number per connection, with a note of how many were left out; large data is cut to a string
 * ending in a note.
 */
export const McpLogEvent = z.object({
  ...base,
  type: z.literal('mcp.log'),
  server_id: z.string(),
  level: McpLogLevel,
  /** What the server sent: any JSON. */
  data: z.unknown(),
});

/** A compaction began: before a request (threshold), after the agent's `Context` call, or at the user's word. */
export const ContextCompactionStartedEvent = z.object({
  ...base,
  type: z.literal('context.compaction_started'),
  level: CompactionLevel,
  reason: CompactionReason,
  tokens_before: z.number().check(z.int()),
});
export const ContextCompactedEvent = z.object({
  ...base,
  type: z.literal('context.compacted'),
  version: z.number().check(z.int()),
  level: CompactionLevel,
  reason: CompactionReason,
  tokens_before: z.number().check(z.int()),
  tokens_after: z.number().check(z.int()),
  summary: z.nullable(StructuredSummary),
});
/** The agent edited its working history or system prompt addition (memory): one new version, reason agent_edit. */
export const ContextEditedEvent = z.object({
  ...base,
  type: z.literal('context.edited'),
  version: z.number().check(z.int()),
  /** Messages in the edited part of the history. */
  messages: z.number().check(z.int()),
  system_prompt_addition: z.nullable(z.string()),
});
/** A fork of this session was spawned, started, or ended (with its response). */
export const ForkUpdatedEvent = z.object({
  ...base,
  type: z.literal('fork.updated'),
  fork: ForkInfo,
});
/** A compaction that did not happen: the context stays as it was. */
export const ContextCompactionFailedEvent = z.object({
  ...base,
  type: z.literal('context.compaction_failed'),
  level: z.nullable(CompactionLevel),
  reason: CompactionReason,
  error: ErrorInfo,
});
export const ExperienceAddedEvent = z.object({
  ...base,
  type: z.literal('experience.added'),
  experience: Experience,
});
export const ExperienceUpdatedEvent = z.object({
  ...base,
  type: z.literal('experience.updated'),
  experience: Experience,
});
export const ExperienceRemovedEvent = z.object({
  ...base,
  type: z.literal('experience.removed'),
  experience_id: z.string(),
});

export const CairnEvent = z.discriminatedUnion('type', [
  TurnStartedEvent,
  MessageDeltaEvent,
  ThinkingDeltaEvent,
  MessageCompletedEvent,
  ToolStartedEvent,
  ToolRunningEvent,
  ToolOutputEvent,
  ToolProgressEvent,
  ToolFinishedEvent,
  ToolLoadedEvent,
  QuestionRequiredEvent,
  QuestionAnsweredEvent,
  QuestionClosedEvent,
  LlmContinuationEvent,
  TurnCompletedEvent,
  TurnFailedEvent,
  TurnCancelledEvent,
  TurnInterruptedEvent,
  FilesRevertedEvent,
  KernelStartedEvent,
  KernelExecutionStartedEvent,
  KernelStreamEvent,
  KernelDisplayEvent,
  KernelInputRequestEvent,
  KernelResultEvent,
  KernelErrorEvent,
  KernelDiedEvent,
  McpServerEvent,
  McpLogEvent,
  ContextCompactionStartedEvent,
  ContextCompactedEvent,
  ContextCompactionFailedEvent,
  ContextEditedEvent,
  ForkUpdatedEvent,
  ExperienceAddedEvent,
  ExperienceUpdatedEvent,
  ExperienceRemovedEvent,
]);
export type CairnEvent = z.infer<typeof CairnEvent>;
export type CairnEventType = CairnEvent['type'];

/** What a producer hands the journal: the event without the fields the journal assigns. */
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
export type NewEvent = DistributiveOmit<CairnEvent, 'seq' | 'session_id' | 'time'>;

export const TERMINAL_TURN_EVENTS = [
  'turn.completed',
  'turn.failed',
  'turn.cancelled',
  'turn.interrupted',
] as const;
