import { CairnError } from '../errors';
import type { CompactionLevel, ContentBlock, StructuredSummary, SummaryKernelVariable } from '../protocol';
import type { ViewItem } from './context-view';
import { normalizeSummary, SUMMARY_JSON_SCHEMA } from './summary-format';
import { estimateTokens } from './token-estimate';

export const SUMMARY_TOOL = {
  name: 'write_summary',
  description: 'Record the structured summary of the conversation part you were given.',
  input_schema: SUMMARY_JSON_SCHEMA,
};

/** What the summary call is asked: a system prompt and one user message; the answer is the tool's input. */
export interface SummaryRequest {
  system: string;
  prompt: string;
}

/**
 * The port through which compaction asks the session's model for a summary (the agent layer implements
 * it with the turn's client). It resolves to the `write_summary` input, or to text that may hold JSON.
 */
export type SummaryCall = (request: SummaryRequest, signal: AbortSignal) => Promise<unknown>;

const SYSTEM = [
  'You write the working memory of an agent whose context is being compacted. Summarise the part of the conversation you are given so that the agent can continue its task exactly where it is, and never redo finished work.',
  'Earlier summaries inside it are merged into yours; where they conflict with the newer conversation, the newer conversation is right.',
  'Fields: goal (what the user wants overall); instruction (the standing instructions and constraints the user gave, verbatim when short); discoveries (facts learned: causes, APIs, values, decisions); completed (work that is done, specific enough not to redo it); current_status (where the work stands at the end of this part); likely_next_work; relevant_files_directories (paths with what each is); remember (lessons that stay true for the rest of the session: only those).',
  'Be specific: names, paths, numbers, commands. Answer only by calling write_summary.',
].join('\n');

/** Per-block characters the summary call sees of a tool result or a long text: its head and tail. */
const BLOCK_CHARS = 3000;

export interface SummaryInput {
  level: CompactionLevel;
  items: ViewItem[];
  call: SummaryCall;
  /** Tokens the summary call's prompt may use; a longer part is summarised in pieces, each merged on. */
  budgetTokens: number;
  kernelVariables?: SummaryKernelVariable[];
  signal: AbortSignal;
}

/** A structured summary of the items, by the session's model (in pieces when they do not fit one call). */
export async function writeSummary(input: SummaryInput): Promise<StructuredSummary> {
  const entries = input.items.map(renderItem);
  const chunks = chunk(entries, Math.max(2000, input.budgetTokens - 1500));
  let summary: StructuredSummary | null = null;
  for (const [i, part] of chunks.entries()) {
    const earlier = summary
      ? `<earlier-summary>\n${JSON.stringify(summary, null, 1)}\n</earlier-summary>\n\n`
      : '';
    const which = chunks.length > 1 ? ` (part ${i + 1} of ${chunks.length})` : '';
    const prompt = `${earlier}<conversation level="${input.level}"${which}>\n${part.join('\n\n')}\n</conversation>`;
    const raw = await input.call({ system: SYSTEM, prompt }, input.signal);
    summary = normalizeSummary(typeof raw === 'string' ? parseJson(raw) : raw);
    if (!summary) {
      throw new CairnError(
        'model_error',
        'The summary call returned no summary (no write_summary call with any field filled). The context was left as it was.',
      );
    }
  }
  if (!summary) throw new CairnError('bad_request', 'There was nothing to summarise.');
  return input.kernelVariables?.length ? { ...summary, kernel_variables: input.kernelVariables } : summary;
}

function renderItem(item: ViewItem): string {
  if (item.kind !== 'message') return item.text;
  const who = item.message.role === 'user' ? (item.message.internal ? 'cairn' : 'user') : 'assistant';
  return item.message.content
    .map((block) => renderBlock(who, block))
    .filter((s) => s.length > 0)
    .join('\n');
}

function renderBlock(who: string, block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return `[${who}] ${clip(String(block.text ?? ''))}`;
    case 'tool_use':
      return `[tool call ${String(block.name)}] ${clip(JSON.stringify(block.input ?? {}))}`;
    case 'tool_result': {
      const content = block.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((c: { text?: string; type?: string }) => c.text ?? `[${c.type}]`).join('\n')
            : '';
      return `[tool result${block.is_error ? ', error' : ''}] ${clip(text)}`;
    }
    default:
      // Thinking and other blocks are the model's own: the summary is written from what was said and done.
      return '';
  }
}

function clip(text: string): string {
  if (text.length <= BLOCK_CHARS) return text;
  const half = BLOCK_CHARS / 2;
  return `${text.slice(0, half)}\n[… ${text.length - BLOCK_CHARS} characters left out …]\n${text.slice(-half)}`;
}

function chunk(entries: string[], budget: number): string[][] {
  const chunks: string[][] = [[]];
  let size = 0;
  for (const entry of entries) {
    const tokens = estimateTokens(entry);
    if (size + tokens > budget && chunks.at(-1)!.length > 0) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(entry);
    size += tokens;
  }
  return chunks;
}

function parseJson(text: string): unknown {
  const match = /\{[\s\S]*\}/.exec(text);
  if (!match) return null;
  try {
    return JSON.parse(match[0]);
  } catch {
    return null;
  }
}
