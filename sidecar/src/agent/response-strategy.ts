import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ErrorInfo, Message } from '../protocol';
import type { TurnSetup } from './turn-runner';

export type Outcome =
  | { status: 'completed' }
  | { status: 'cancelled' }
  | { status: 'failed'; error: ErrorInfo };

/** One model reply that ended normally (not cut by max_tokens), already saved as the assistant's message. */
export interface ModelStep {
  setup: TurnSetup;
  response: Anthropic.Message;
  content: ContentBlock[];
  message: Message;
  /** Saves another assistant message of the turn (with its `message.completed` event). */
  saveAssistant(content: ContentBlock[], stopReason: string | null): Message;
}

/**
 * What a turn does with the model's replies: the tool loop runs the tool calls, code mode runs the code.
 * TurnRunner keeps what both share (context step, streaming, usage, continuations, cancellation, errors).
 */
export interface ResponseStrategy {
  /** The tools each request offers (asked before each request). */
  toolDefinitions(setup: TurnSetup): Anthropic.Tool[];
  /** Sequences the model stops at, if any. */
  readonly stopSequences?: string[];
  /** Acts on a reply: `continue` sends the next request; an outcome ends the turn. */
  handle(step: ModelStep): Promise<'continue' | Outcome>;
}
