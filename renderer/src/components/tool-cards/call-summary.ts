import type { Translate } from '../../i18n/i18n';
import type { ToolCardState } from '../../state/tool-items';
import { inputField, inputText, oneLine, readableArguments, summarizeToolInput } from '../tool-summary';
import { callKind, mcpNames } from './call-kind';
import { countChangedLines } from './changed-lines';

/** What a call's card says in its collapsed line: the command, the file and its change, the code's purpose. */
export function summarizeCall(card: Pick<ToolCardState, 'name' | 'input' | 'meta'>, t: Translate): string {
  const { name, input } = card;
  switch (callKind(name)) {
    case 'edit':
      return withDetail(filePath(input), editDetail(input, t));
    case 'write': {
      const content = inputText(input, 'content');
      return withDetail(filePath(input), content === null ? null : lineCount(content, t));
    }
    case 'read':
      return withDetail(filePath(input), readRange(input, t));
    case 'list': {
      const where = inputText(input, 'path');
      return oneLine(
        where
          ? t('tool.summary.in', { pattern: inputText(input, 'pattern') ?? '', path: where })
          : summarizeToolInput(name, input),
      );
    }
    case 'code':
      return withDetail(codePurpose(inputText(input, 'code') ?? ''), outputKinds(card.meta, t));
    case 'mcp':
      // The server shows as a badge beside the tool's own name.
      return oneLine(readableArguments(input));
    default: {
      // Tools with methods (Fork, Context, ToolControl…) read best as the method and its own arguments.
      const method = inputText(input, 'method');
      const args = inputField(input, 'arguments');
      if (method !== null && typeof args === 'object' && args !== null) {
        const rest = readableArguments(args);
        return oneLine(rest ? `${method} · ${rest}` : method);
      }
      return summarizeToolInput(name, input);
    }
  }
}

/** The name a card shows: an MCP tool's own name (its server is in the summary), else the tool's. */
export function callTitle(name: string): string {
  return mcpNames(name)?.tool ?? name;
}

function filePath(input: unknown): string {
  return inputText(input, 'path') ?? inputText(input, 'file_path') ?? '';
}

function withDetail(main: string, detail: string | null): string {
  return oneLine(detail ? `${main} (${detail})` : main);
}

function lineCount(text: string, t: Translate): string {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return lines === 1 ? t('tool.summary.line') : t('tool.summary.lines', { count: String(lines) });
}

/**
 * Counts by the call's input object, which the card state keeps as it is: a card scrolled back into view
 * (turns are virtualized, so it mounts again) does not count a big edit again.
 */
const editCounts = new WeakMap<object, { added: number; removed: number }>();

function editDetail(input: unknown, t: Translate): string | null {
  const before = inputText(input, 'old_string');
  const after = inputText(input, 'new_string');
  if (before === null || after === null) return null;
  const key = input as object;
  const known = editCounts.get(key);
  const { added, removed } = known ?? countChangedLines(before, after);
  if (!known) editCounts.set(key, { added, removed });
  const counts = `+${added} −${removed}`;
  return inputField(input, 'replace_all') === true ? t('tool.summary.everyOccurrence', { counts }) : counts;
}

function readRange(input: unknown, t: Translate): string | null {
  const offset = inputField(input, 'offset');
  const limit = inputField(input, 'limit');
  const from = typeof offset === 'number' ? offset : 1;
  if (typeof limit === 'number')
    return t('tool.summary.range', { from: String(from), to: String(from + limit - 1) });
  return typeof offset === 'number' ? t('tool.summary.from', { from: String(from) }) : null;
}

/** Comments that say nothing about the cell: an encoding line, a cell marker (`#%%`, `# In[3]:`), a linter's pragma. */
const NOISE_COMMENT =
  /^#\s*(-\*-.*-\*-|(vim?|ex):.*|%%.*|In\s*\[\d*\]:?|type:.*|noqa.*|pylint:.*|fmt:.*)$|^#.*coding[:=]/i;
/** A comment this far into the cell says what a later part does, not the cell. */
const PURPOSE_LINES = 5;

/**
 * What a cell is for: a comment among its first lines (`# plot squares`), else its first line of code. A
 * cell that is a single expression or call reads well as it is.
 */
export function codePurpose(code: string): string {
  const lines = code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#!') && !NOISE_COMMENT.test(line));
  const comment = lines.slice(0, PURPOSE_LINES).find((line) => line.startsWith('#'));
  if (comment) {
    const text = comment.replace(/^#+\s*/, '');
    if (text !== '') return text;
  }
  const first = lines.find((line) => !line.startsWith('#'));
  return first ?? '';
}

/** "image", "HTML"… from the kinds of rich output execute_code reported (its meta), or null. */
function outputKinds(meta: Record<string, unknown> | null, t: Translate): string | null {
  const outputs = meta?.outputs;
  if (!Array.isArray(outputs)) return null;
  const kinds = new Set<string>();
  for (const mime of outputs) {
    if (typeof mime !== 'string') continue;
    if (mime.startsWith('image/')) kinds.add(t('tool.summary.image'));
    else if (mime === 'text/html') kinds.add('HTML');
    else if (mime === 'application/pdf') kinds.add('PDF');
  }
  return kinds.size > 0 ? [...kinds].join(', ') : null;
}
