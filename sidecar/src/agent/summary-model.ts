import type Anthropic from '@anthropic-ai/sdk';
import { SUMMARY_TOOL, type SummaryCall } from '../context/summary-writer';
import { toModelFailure } from './model-errors';
import type { ModelSettings } from './model-settings';

/** Enough for the longest structured summary; less when the model config's own output budget is smaller. */
const SUMMARY_MAX_TOKENS = 4096;

/**
 * The summary call compaction makes, with the session's own model: one request that must answer by
 * calling `write_summary` (no thinking: a forced tool call refuses it). Failures are the model's,
 * mapped like a turn's, so a failed summary says what happened and the context stays as it was.
 */
export function summaryModel(
  client: Anthropic,
  settings: ModelSettings,
  /** What the call cost, so a turn's usage counts its summaries too. */
  onUsage?: (usage: Anthropic.Usage) => void,
): SummaryCall {
  return async (request, signal) => {
    try {
      const stream = client.messages.stream(
        {
          model: settings.model,
          max_tokens: Math.min(settings.maxTokens, SUMMARY_MAX_TOKENS),
          system: request.system,
          messages: [{ role: 'user', content: request.prompt }],
          tools: [SUMMARY_TOOL as unknown as Anthropic.Tool],
          tool_choice: { type: 'tool', name: SUMMARY_TOOL.name },
        },
        { signal },
      );
      const message = await stream.finalMessage();
      onUsage?.(message.usage);
      const use = message.content.find((b) => b.type === 'tool_use' && b.name === SUMMARY_TOOL.name);
      if (use && use.type === 'tool_use') return use.input;
      return message.content
        .filter((b) => b.type === 'text')
        .map((b) => (b as Anthropic.TextBlock).text)
        .join('');
    } catch (error) {
      if (signal.aborted) throw error;
      throw toModelFailure(error, settings);
    }
  };
}
