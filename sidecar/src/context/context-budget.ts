import { CairnError } from '../errors';
import type { ContextUnit } from '../protocol';

/** Automatic compaction aims at this fraction of the threshold, so the next rounds do not compact again at once. */
export const AUTO_TARGET = 0.7;

export interface WindowSettings {
  model: string;
  contextWindow: number;
  maxTokens: number;
  compactThreshold: number | null;
}

/** The window minus the output budget: what a request may fill. */
export function usableWindow(settings: WindowSettings): number {
  return Math.max(0, settings.contextWindow - settings.maxTokens);
}

/** Tokens at which automatic compaction starts; null when it is off. */
export function thresholdTokens(settings: WindowSettings): number | null {
  return settings.compactThreshold === null
    ? null
    : Math.floor(usableWindow(settings) * settings.compactThreshold);
}

export interface TooLargeInput {
  settings: WindowSettings;
  tokens: number;
  /** The context's units, their sizes in the API's tokens. */
  units: ContextUnit[];
  toolCatalogTokens: number;
  toolCount: number;
  /** The system prompt with the project's instructions and the experiences at its end. */
  systemTokens: number;
  experienceCount: number;
  /** Why compaction did not help, when it was tried. */
  compaction: string | null;
}

/** The request cannot fit: says what is largest in it and what to do, so the user is not left guessing. */
export function contextTooLarge(input: TooLargeInput): CairnError {
  const { settings } = input;
  const largest = input.units.reduce<ContextUnit | null>(
    (max, u) => (!max || u.tokens > max.tokens ? u : max),
    null,
  );
  let what: string;
  const unitTokens = largest?.tokens ?? 0;
  if (input.systemTokens >= Math.max(input.toolCatalogTokens, unitTokens)) {
    what =
      `The largest part is the system prompt (about ${input.systemTokens} tokens, with the project's instruction ` +
      `file and ${input.experienceCount} experience${input.experienceCount === 1 ? '' : 's'}): shorten the ` +
      'instruction file, or delete experiences the session no longer needs.';
  } else if (!largest || input.toolCatalogTokens >= largest.tokens) {
    what = `The largest part is the tool catalog (${input.toolCount} tools, about ${input.toolCatalogTokens} tokens): turn off MCP servers this session does not need.`;
  } else {
    const kind =
      largest.kind === 'tool_result'
        ? 'a tool result'
        : largest.kind === 'summary'
          ? 'a summary'
          : 'one message';
    what = `The largest part is ${kind} (${largest.ref}, about ${largest.tokens} tokens${largest.protected ? ', protected because it is in the current round or the latest prompt' : ''}).`;
  }
  const tried = input.compaction ? ` Compaction could not make it fit: ${input.compaction}` : '';
  return new CairnError(
    'context_window_exceeded',
    `The next request needs about ${input.tokens} tokens, more than model ${settings.model} can take ` +
      `(context window ${settings.contextWindow}, of which ${settings.maxTokens} are kept for the answer). ${what}${tried} ` +
      'Nothing was lost: compact the context (the Context tool, or "compact now"), ask for smaller steps, ' +
      'or use a model with a larger context window.',
  );
}
