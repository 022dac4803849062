import { estimateTokens } from '../context/token-estimate';
import { CairnError } from '../errors';
import type { Logger } from '../log/logger';
import type { ApprovalMode, ToolCallStatus } from '../protocol';
import type { Store } from '../store/store';
import { describeProcess, removeProcessRecord, writeProcessRecord } from '../tools/process-record';
import { type Tool, ToolError } from '../tools/tool';
import type { ToolCallFiles } from '../tools/tool-call-files';
import type { QuestionBroker } from './question-broker';

/** Results larger than this many tokens go to a file; the model gets the path and a preview. */
export const RESULT_TOKEN_LIMIT = 4096;
const PREVIEW_CHARS = 2000;
const EVENT_PREVIEW_CHARS = 500;

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

export interface DispatchContext {
  sessionId: string;
  turnId: string;
  projectRoot: string | null;
  tools: Tool[];
  /** Read at each call, so switching a session to `ask` applies to its next tool call. */
  approvalMode: () => ApprovalMode;
  signal: AbortSignal;
}

/** Runs one tool call: record, approval, execution, result files, events. */
export class ToolDispatcher {
  constructor(
    private readonly store: Store,
    private readonly files: ToolCallFiles,
    private readonly broker: QuestionBroker,
    private readonly logger: Logger,
  ) {}

  async run(ctx: DispatchContext, use: ToolUse): Promise<ToolResultBlock> {
    const tool = ctx.tools.find((t) => t.name === use.name);
    const needsApproval = tool?.sideEffects === true && ctx.approvalMode() === 'ask';
    const call = this.store.toolCalls.create({
      sessionId: ctx.sessionId,
      turnId: ctx.turnId,
      toolUseId: use.id,
      name: use.name,
      input: use.input,
      status: needsApproval ? 'waiting_approval' : 'running',
    });
    this.files.writeStatus(call);
    this.store.events.append(ctx.sessionId, {
      type: 'tool.started',
      turn_id: ctx.turnId,
      tool_call_id: call.id,
      tool_use_id: use.id,
      name: use.name,
      input: use.input,
      status: needsApproval ? 'waiting_approval' : 'running',
    });
    const started = performance.now();
    const outcome = await this.execute(ctx, tool, use, call.id, needsApproval);
    return this.finish(ctx, call.id, use.id, outcome, performance.now() - started);
  }

  private async execute(
    ctx: DispatchContext,
    tool: Tool | undefined,
    use: ToolUse,
    toolCallId: string,
    needsApproval: boolean,
  ): Promise<{ status: ToolCallStatus; content: string; isError: boolean }> {
    if (!tool) {
      const names = ctx.tools.map((t) => t.name).join(', ') || 'none';
      return {
        status: 'failed',
        isError: true,
        content: `There is no tool named ${use.name}. Tools: ${names}.`,
      };
    }
    const parsed = tool.inputSchema.safeParse(use.input);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
        .join('; ');
      return { status: 'failed', isError: true, content: `Invalid input for ${tool.name}: ${issues}` };
    }
    // The process a tool starts is recorded while it runs, so a crash does not leave it running forever.
    const recordFile = this.files.processRecordPath(ctx.sessionId, toolCallId);
    let recorded = false;
    try {
      if (needsApproval) {
        const answer = await this.broker.ask(
          {
            sessionId: ctx.sessionId,
            turnId: ctx.turnId,
            toolCallId,
            kind: 'approval',
            question: `Allow ${tool.name}? ${describeInput(use.input)}`,
            options: ['allow', 'deny'],
            tool: { name: tool.name, input: use.input },
          },
          ctx.signal,
        );
        if (answer !== 'allow') {
          return {
            status: 'denied',
            isError: true,
            content: 'The user denied this tool call. Do not retry it as is.',
          };
        }
        this.store.toolCalls.setStatus(toolCallId, 'running');
      }
      const result = await tool.execute(parsed.data, {
        projectRoot: ctx.projectRoot,
        sessionId: ctx.sessionId,
        toolCallId,
        sessionResultsDir: this.files.sessionResultsDir(ctx.sessionId),
        signal: ctx.signal,
        onProcessStarted: (pid) => {
          recorded = this.recordProcess(recordFile, pid) || recorded;
        },
        onOutput: (stream, text) => {
          if (text.length === 0) return;
          this.store.events.append(ctx.sessionId, {
            type: 'tool.output',
            turn_id: ctx.turnId,
            tool_call_id: toolCallId,
            stream,
            text,
          });
        },
        ask: (question, options) =>
          this.broker.ask(
            {
              sessionId: ctx.sessionId,
              turnId: ctx.turnId,
              toolCallId,
              kind: 'question',
              question,
              options,
              tool: null,
            },
            ctx.signal,
          ),
      });
      if (ctx.signal.aborted) return cancelled();
      return {
        status: result.isError ? 'failed' : 'completed',
        isError: result.isError ?? false,
        content: result.content,
      };
    } catch (error) {
      if (ctx.signal.aborted) return cancelled();
      // A CairnError is a refusal with a message meant for whoever called (bad arguments, unknown id).
      if (error instanceof ToolError || error instanceof CairnError) {
        return { status: 'failed', isError: true, content: error.message };
      }
      this.logger.error('tool crashed', { tool: use.name, error });
      const message = error instanceof Error ? error.message : String(error);
      return { status: 'failed', isError: true, content: `${use.name} failed unexpectedly: ${message}` };
    } finally {
      if (recorded) this.forgetProcess(recordFile);
    }
  }

  /** Notes the process a tool started in its call's folder; false (and a warning) if that fails. */
  private recordProcess(file: string, pid: number): boolean {
    try {
      writeProcessRecord(file, describeProcess(pid));
      return true;
    } catch (error) {
      this.logger.warn('could not record a tool process', { pid, error });
      return false;
    }
  }

  /** The process ended while the sidecar ran (normally, or killed on cancel or timeout): nothing to stop. */
  private forgetProcess(file: string): void {
    try {
      removeProcessRecord(file);
    } catch (error) {
      this.logger.warn('could not remove a tool process record', { file, error });
    }
  }

  private finish(
    ctx: DispatchContext,
    toolCallId: string,
    toolUseId: string,
    outcome: { status: ToolCallStatus; content: string; isError: boolean },
    durationMs: number,
  ): ToolResultBlock {
    const file = this.files.writeResult(ctx.sessionId, toolCallId, outcome.content);
    const tokens = estimateTokens(outcome.content);
    const forModel =
      tokens > RESULT_TOKEN_LIMIT
        ? `The result is ${outcome.content.length} characters (about ${tokens} tokens), too large to show in full. ` +
          `It was saved to ${file}; read parts of it with Read (offset, limit) or search it with Grep.\n` +
          `Preview:\n${outcome.content.slice(0, PREVIEW_CHARS)}`
        : outcome.content;
    const call = this.store.toolCalls.finish(toolCallId, {
      status: outcome.status,
      isError: outcome.isError,
      preview: outcome.content.slice(0, PREVIEW_CHARS),
      resultFile: file,
      durationMs,
    });
    this.files.writeStatus(call);
    this.store.events.append(ctx.sessionId, {
      type: 'tool.finished',
      turn_id: ctx.turnId,
      tool_call_id: toolCallId,
      status: outcome.status,
      is_error: outcome.isError,
      duration_ms: Math.round(durationMs),
      preview: outcome.content.slice(0, EVENT_PREVIEW_CHARS),
    });
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: forModel || '(no output)',
      ...(outcome.isError ? { is_error: true } : {}),
    };
  }
}

function cancelled(): { status: ToolCallStatus; content: string; isError: boolean } {
  return {
    status: 'cancelled',
    isError: true,
    content: 'The user cancelled this tool call; its process tree was stopped.',
  };
}

function describeInput(input: unknown): string {
  if (input && typeof input === 'object') {
    const record = input as Record<string, unknown>;
    if (typeof record.command === 'string') return `Command: ${record.command}`;
    if (typeof record.code === 'string') {
      const code = record.code.length > 2000 ? `${record.code.slice(0, 2000)}…` : record.code;
      return `Python code:\n${code}`;
    }
    if (typeof record.program === 'string') {
      const args = Array.isArray(record.args) ? record.args.join(' ') : '';
      return `Program: ${record.program} ${args}`.trim();
    }
    if (typeof record.path === 'string') return `Path: ${record.path}`;
  }
  const text = JSON.stringify(input);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
