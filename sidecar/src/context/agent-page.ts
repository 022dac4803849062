import type { ContentBlock, ContextInfo, ContextVersionView } from '../protocol';

/** The most of one block the agent's `Context read` returns: a past version must not refill the context. */
export const READ_BLOCK_CHARS = 4000;
/** The newest units `Context inspect` lists one by one; older ones are counted per level. */
export const INSPECT_UNITS = 60;

/**
 * A page of a past version as the agent reads it: each long block cut to its start, saying how much
 * is left and, for a tool result, the file that holds it whole (Read brings it back).
 */
export function clipVersionPage(
  page: ContextVersionView,
  resultFile: (toolUseId: string) => string | null,
): ContextVersionView {
  const clip = (text: string, file: string | null) => {
    if (text.length <= READ_BLOCK_CHARS) return text;
    const where = file ? `; Read ${file} for all of it` : '';
    return `${text.slice(0, READ_BLOCK_CHARS)}\n[… ${text.length - READ_BLOCK_CHARS} more characters${where}]`;
  };
  const block = (b: ContentBlock): ContentBlock => {
    if (b.type === 'text') return { ...b, text: clip(String(b.text ?? ''), null) };
    if (b.type !== 'tool_result') return b;
    const file = resultFile(String(b.tool_use_id));
    const content = b.content;
    if (typeof content === 'string') return { ...b, content: clip(content, file) };
    if (!Array.isArray(content)) return b;
    return {
      ...b,
      content: content.map((c: ContentBlock) =>
        c.type === 'text' ? { ...c, text: clip(String(c.text ?? ''), file) } : c,
      ),
    };
  };
  return { ...page, messages: page.messages.map((m) => ({ ...m, content: m.content.map(block) })) };
}

/** The context's units for the agent: the newest one by one, older ones counted per level (a long turn has hundreds). */
export function inspectUnits(info: ContextInfo) {
  const older = info.units.slice(0, Math.max(0, info.units.length - INSPECT_UNITS));
  if (older.length === 0) return info;
  const byLevel: Record<string, { units: number; tokens: number }> = {};
  for (const unit of older) {
    const level = byLevel[unit.level] ?? { units: 0, tokens: 0 };
    byLevel[unit.level] = { units: level.units + 1, tokens: level.tokens + unit.tokens };
  }
  return {
    ...info,
    units: info.units.slice(older.length),
    older_units: { count: older.length, by_level: byLevel },
  };
}
