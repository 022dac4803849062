import type { SandboxSpec } from '../../process/sandbox';
import type {
  ApprovalInfo,
  ApprovalMode,
  ElicitationAction,
  ElicitationContent,
  ElicitationInfo,
  ToolCallStatus,
} from '../../protocol';
import type { Tool } from '../tool';

/** A question for the user, as the agent's question broker takes it. */
export interface UserQuestion {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  kind: 'approval' | 'question' | 'elicitation';
  question: string;
  options: string[] | null;
  tool: { name: string; input: unknown } | null;
  /** For approvals: why it asks and the rule "always allow" would propose. */
  permission?: ApprovalInfo | null;
  /** For elicitations: the MCP server and its form. */
  elicitation?: ElicitationInfo | null;
}

/**
 * Who asks the user (the agent's question broker). `detached`: the question belongs to a call that may
 * outlive its turn (a script's), so the turn's end does not close it; the call's signal does.
 */
export interface UserQuestions {
  ask(question: UserQuestion, signal: AbortSignal, options?: { detached?: boolean }): Promise<string>;
  /** An MCP server's form request: the user's action and, when accepted, the checked values. */
  elicit?(
    question: UserQuestion,
    signal: AbortSignal,
    options?: { detached?: boolean },
  ): Promise<{ action: ElicitationAction; content: ElicitationContent | null }>;
}

/** One tool call to run: the model's (from a tool_use block) or a script's (through the endpoint). */
export interface CallRequest {
  sessionId: string;
  turnId: string;
  projectRoot: string | null;
  /** The model's tool_use id; a script's call gets one of its own. */
  toolUseId: string;
  name: string;
  input: unknown;
  tools: readonly Tool[];
  /** Read when the call starts, so switching a session to `ask` applies to its next call. */
  approvalMode: () => ApprovalMode;
  /** The call whose script made this one; null for the model's. */
  parentCallId: string | null;
  /** Cancels the call while it is waited for: the turn's signal for the model, the parent's for a script. */
  signal: AbortSignal;
  /**
   * The sandbox of the session's project, read when the tool starts (so a changed setting applies to the
   * next call); absent or null: none.
   */
  sandbox?: () => Promise<SandboxSpec | null>;
}

/** How a call ended, or, for one that runs on in the background, its receipt. */
export interface CallOutcome {
  callId: string;
  status: ToolCallStatus;
  content: string;
  isError: boolean;
  /** The call's folder: status.json, result.txt and its output pieces. */
  resultDir: string;
  resultFile: string | null;
  exitCode: number | null;
  meta: Record<string, unknown>;
  /** The call runs on after this receipt. */
  background: boolean;
}
