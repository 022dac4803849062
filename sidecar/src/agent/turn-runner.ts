import type Anthropic from '@anthropic-ai/sdk';
import {
  type CachedRequestParts,
  type ConversationEnd,
  withCacheBreakpoints,
} from '../context/cache-breakpoints';
import { CairnError } from '../errors';
import { internalFailure } from '../log/internal-failure';
import type { Logger } from '../log/logger';
import type { ContentBlock, Message } from '../protocol';
import type { Store } from '../store/store';
import type { SessionToolRuntime } from '../tools/runtime/session-tool-runtime';
import { type Tool, toolInputJsonSchema } from '../tools/tool';
import type { ContextStep } from './context-step';
import { closeDanglingToolUses } from './history-repair';
import { toModelFailure } from './model-errors';
import type { ModelSettings } from './model-settings';
import type { QuestionBroker } from './question-broker';
import type { ModelStep, Outcome, ResponseStrategy } from './response-strategy';
import { summaryModel } from './summary-model';
import { type ToolUse, toolResultBlock } from './tool-results';

export const CONTINUE_INSTRUCTION =
  'Your previous response was cut off by the output token limit. Continue exactly where it stopped, without repeating anything.';
export const SMALLER_INSTRUCTION =
  'Your previous response was cut off by the output token limit while you were writing a tool call, so it was ' +
  'discarded and no tool ran. Make the operation smaller: split large file contents or commands into several ' +
  'smaller tool calls.';

export interface TurnRunnerDeps {
  store: Store;
  broker: QuestionBroker;
  /** Compaction, experiences and the size check before each request. */
  context: ContextStep;
  logger: Logger;
  /** Where the log is, named in the message of a failure inside Cairn. */
  logDir?: string;
  maxContinuations: number;
}

/** A failure of Cairn's own work while a model stream was open: not the model's, whatever it looks like. */
class LoopFailure {
  constructor(readonly cause: unknown) {}
}

export interface TurnSetup {
  sessionId: string;
  turnId: string;
  projectRoot: string | null;
  /** The session's tool runtime, borrowed for the turn: its tools now, and the one way to run a call. */
  tools: SessionToolRuntime;
  systemPrompt: string;
  settings: ModelSettings;
  client: Anthropic;
  signal: AbortSignal;
}

/** The agent loop for one turn: model, tools, model, … until the model ends its turn. */
export class TurnRunner {
  private readonly toolLoop: ResponseStrategy;

  constructor(private readonly deps: TurnRunnerDeps) {
    this.toolLoop = toolLoop(deps.store);
  }

  /** Runs the turn; `strategy` says what a reply leads to (default: the tool loop). */
  async run(setup: TurnSetup, strategy: ResponseStrategy = this.toolLoop): Promise<Outcome> {
    try {
      return await this.loop(setup, strategy);
    } catch (error) {
      if (setup.signal.aborted) return { status: 'cancelled' };
      // Model failures arrive as CairnErrors (streamOnce maps them); anything else is Cairn's own.
      if (error instanceof CairnError) {
        this.deps.logger.warn('turn failed', { turn: setup.turnId, error });
        return { status: 'failed', error: error.toJSON() };
      }
      const failure = internalFailure(this.deps.logger, 'turn failed inside Cairn', error, {
        turn: setup.turnId,
        logDir: this.deps.logDir,
      });
      return { status: 'failed', error: failure.toJSON() };
    }
  }

  private async loop(setup: TurnSetup, strategy: ResponseStrategy): Promise<Outcome> {
    const { store } = this.deps;
    let recoveries = 0;
    let previousEnd: ConversationEnd | null = null;
    let version: number | null = null;
    const addUsage = (usage: Anthropic.Usage) =>
      store.turns.addUsage(
        setup.turnId,
        {
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        },
        setup.settings.configId,
      );
    const summarize = summaryModel(setup.client, setup.settings, addUsage);
    for (;;) {
      if (setup.signal.aborted) return { status: 'cancelled' };
      // Asked before each request: a tool loaded in the last round is there from this one on.
      const toolDefs = strategy.toolDefinitions(setup);
      const prepared = await this.deps.context.prepare(setup, toolDefs, summarize);
      // A compaction changed the conversation: the previous end no longer points at the same block.
      if (prepared.version !== version) previousEnd = null;
      version = prepared.version;
      const request: CachedRequestParts<Anthropic.Tool> = withCacheBreakpoints(
        prepared.system,
        toolDefs,
        prepared.messages,
        previousEnd,
      );
      previousEnd = request.end;
      const response = await this.streamOnce(setup, request, strategy.stopSequences);
      if (response === 'cancelled') return { status: 'cancelled' };
      this.deps.context.record(setup.sessionId, prepared, response.usage);
      addUsage(response.usage);
      const content = response.content.map(cleanBlock);
      if (content.length === 0) {
        throw new CairnError(
          'model_empty_response',
          `The model returned an empty response (stop reason: ${response.stop_reason ?? 'none'}). ` +
            'Try again; if it keeps happening, check the model config.',
        );
      }

      if (response.stop_reason === 'max_tokens') {
        recoveries += 1;
        const truncatedTool = content.at(-1)?.type === 'tool_use';
        if (recoveries > this.deps.maxContinuations) {
          throw new CairnError(
            'continuation_limit',
            `The model hit its output limit (max_tokens ${setup.settings.maxTokens}) ${recoveries} times in a row. ` +
              'Raise max_tokens in the model config or ask for a smaller step.',
          );
        }
        store.transaction(() => {
          if (!truncatedTool) this.saveAssistant(setup, content, response.stop_reason);
          store.messages.append({
            sessionId: setup.sessionId,
            turnId: setup.turnId,
            role: 'user',
            content: [
              { type: 'text', text: truncatedTool ? SMALLER_INSTRUCTION : CONTINUE_INSTRUCTION },
              ...noticeBlocks(setup.tools),
            ],
            internal: true,
          });
          store.turns.countContinuation(setup.turnId);
          store.events.append(setup.sessionId, {
            type: 'llm.continuation',
            turn_id: setup.turnId,
            reason: truncatedTool ? 'truncated_tool_call' : 'max_tokens',
            attempt: recoveries,
            max_attempts: this.deps.maxContinuations,
          });
        });
        continue;
      }

      const message = this.saveAssistant(setup, content, response.stop_reason);
      if (response.stop_reason === 'pause_turn') continue;
      const next = await strategy.handle({
        setup,
        response,
        content,
        message,
        saveAssistant: (more, stopReason) => this.saveAssistant(setup, more, stopReason),
      });
      if (next !== 'continue') return next;
      if (setup.signal.aborted) return { status: 'cancelled' };
      recoveries = 0;
    }
  }

  /** One streamed request; keeps partial text when the stream breaks or is cancelled. */
  private async streamOnce(
    setup: TurnSetup,
    request: CachedRequestParts<Anthropic.Tool>,
    stopSequences: string[] | undefined,
  ): Promise<Anthropic.Message | 'cancelled'> {
    const params: Anthropic.MessageStreamParams = {
      model: setup.settings.model,
      max_tokens: setup.settings.maxTokens,
      system: request.system,
      messages: request.messages as unknown as Anthropic.MessageParam[],
      ...(request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(stopSequences && stopSequences.length > 0 ? { stop_sequences: stopSequences } : {}),
      ...(setup.settings.thinkingBudget
        ? { thinking: { type: 'enabled' as const, budget_tokens: setup.settings.thinkingBudget } }
        : {}),
    };
    const partial = new Map<number, string>();
    let received = false;
    try {
      const stream = setup.client.messages.stream(params, { signal: setup.signal });
      for await (const event of stream) {
        received = true;
        try {
          this.relay(setup, event, partial);
        } catch (error) {
          throw new LoopFailure(error);
        }
      }
      return await stream.finalMessage();
    } catch (error) {
      if (error instanceof LoopFailure) throw error.cause;
      const text = [...partial.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, t]) => t)
        .join('');
      if (text.length > 0) this.saveAssistant(setup, [{ type: 'text', text }], null);
      if (setup.signal.aborted) return 'cancelled';
      throw toModelFailure(error, setup.settings, received ? { keptChars: text.length } : undefined);
    }
  }

  /** Puts a streamed piece of the answer on the journal, and keeps its text in case the stream breaks. */
  private relay(setup: TurnSetup, event: Anthropic.MessageStreamEvent, partial: Map<number, string>): void {
    if (event.type !== 'content_block_delta') return;
    const { store } = this.deps;
    if (event.delta.type === 'text_delta') {
      partial.set(event.index, (partial.get(event.index) ?? '') + event.delta.text);
      store.events.append(setup.sessionId, {
        type: 'message.delta',
        turn_id: setup.turnId,
        index: event.index,
        text: event.delta.text,
      });
    } else if (event.delta.type === 'thinking_delta') {
      store.events.append(setup.sessionId, {
        type: 'thinking.delta',
        turn_id: setup.turnId,
        index: event.index,
        text: event.delta.thinking,
      });
    }
  }

  private saveAssistant(setup: TurnSetup, content: ContentBlock[], stopReason: string | null): Message {
    const { store } = this.deps;
    return store.transaction(() => {
      const message = store.messages.append({
        sessionId: setup.sessionId,
        turnId: setup.turnId,
        role: 'assistant',
        content,
      });
      store.events.append(setup.sessionId, {
        type: 'message.completed',
        turn_id: setup.turnId,
        message,
        stop_reason: stopReason,
      });
      return message;
    });
  }

  /** Ends a turn: closes its questions, repairs history, records the status and its event. */
  finish(setup: Pick<TurnSetup, 'sessionId' | 'turnId'>, outcome: Outcome): void {
    const { store, broker } = this.deps;
    const reason = outcome.status === 'cancelled' ? 'The turn was cancelled.' : 'The turn ended.';
    this.deps.logger.info('turn finished', {
      session: setup.sessionId,
      turn: setup.turnId,
      status: outcome.status,
      ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
    });
    broker.closeForTurn(setup.sessionId, setup.turnId, reason);
    store.transaction(() => {
      if (outcome.status !== 'completed') {
        closeDanglingToolUses(
          store,
          setup.sessionId,
          setup.turnId,
          `This tool call did not run to completion: ${reason}`,
        );
      }
      const turn = store.turns.finish(
        setup.turnId,
        outcome.status,
        outcome.status === 'failed' ? outcome.error : null,
      );
      if (outcome.status === 'completed') {
        store.events.append(setup.sessionId, {
          type: 'turn.completed',
          turn_id: setup.turnId,
          usage: turn.usage,
        });
      } else if (outcome.status === 'cancelled') {
        store.events.append(setup.sessionId, { type: 'turn.cancelled', turn_id: setup.turnId });
      } else {
        store.events.append(setup.sessionId, {
          type: 'turn.failed',
          turn_id: setup.turnId,
          error: outcome.error,
        });
      }
      store.sessions.touch(setup.sessionId);
    });
  }
}

/** The tool loop: the model's tool calls run (in parallel), their results go back; no call ends the turn. */
function toolLoop(store: Store): ResponseStrategy {
  return {
    toolDefinitions: (setup) => setup.tools.modelTools().map(toolDefinition),
    async handle({ setup, response, content }: ModelStep): Promise<'continue' | Outcome> {
      const uses = content.filter((b) => b.type === 'tool_use') as unknown as ToolUse[];
      if (response.stop_reason !== 'tool_use' || uses.length === 0) return { status: 'completed' };
      const results = await Promise.all(
        uses.map(async (use) => toolResultBlock(use, await setup.tools.runForModel(use, setup.signal))),
      );
      // A background call that ended meanwhile is told in this request, after the results.
      store.messages.append({
        sessionId: setup.sessionId,
        turnId: setup.turnId,
        role: 'user',
        content: [...(results as unknown as ContentBlock[]), ...noticeBlocks(setup.tools)],
      });
      return 'continue';
    },
  };
}

function toolDefinition(t: Tool): Anthropic.Tool {
  return {
    name: t.name,
    description: t.description,
    input_schema: toolInputJsonSchema(t) as Anthropic.Tool['input_schema'],
  };
}

/** One text block per background call that ended since the last request. */
export function noticeBlocks(tools: SessionToolRuntime): ContentBlock[] {
  return tools.takeNotices().map((text) => ({ type: 'text', text }));
}

/** Keeps only the fields the API accepts back in history. */
function cleanBlock(block: Anthropic.ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
    default:
      return block as unknown as ContentBlock;
  }
}
