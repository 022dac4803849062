import type { ParsesPython } from './python-syntax';

/** The code a model's reply asks to run, with the prose around it; or the error that tells it the form. */
export type ExtractedCode =
  | { kind: 'tags' | 'fence' | 'bare'; code: string; reasoning: string }
  | { kind: 'none'; error: string };

/** What the model is told when its reply had nothing to run. */
export const NO_CODE_ERROR =
  'Your reply had no code to run. Answer with your reasoning, then one code block:\n' +
  '<code>\nresult = ...\nprint(result)\n</code>\n' +
  'End the task with final_answer(...).';

const OPEN = '<code>';
const CLOSE = '</code>';
const FENCE_LANGS = new Set(['', 'python', 'py', 'python3']);

/**
 * The code to run from a reply, trying in turn: `<code>` tags, a Python fence, the whole text when it is
 * Python, else an error for the model. `stoppedAtCloseTag` says the reply ended at the `</code>` stop
 * sequence, so the block is its tail: the last opening runs to the end.
 */
export async function extractCode(
  reply: string,
  options: { stoppedAtCloseTag: boolean; parses: ParsesPython },
): Promise<ExtractedCode> {
  const tagged = fromTags(reply, options.stoppedAtCloseTag);
  if (tagged) return { kind: 'tags', ...tagged };
  const fenced = lastFence(reply);
  if (fenced?.code.trim()) return { kind: 'fence', ...fenced };
  const bare = reply.trim();
  if (looksLikeCode(bare) && (await options.parses(bare))) return { kind: 'bare', code: bare, reasoning: '' };
  return { kind: 'none', error: NO_CODE_ERROR };
}

interface Block {
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
  closed: boolean;
}

function fromTags(reply: string, stoppedAtCloseTag: boolean): { code: string; reasoning: string } | null {
  const blocks: Block[] = [];
  for (let at = reply.indexOf(OPEN); at !== -1; at = reply.indexOf(OPEN, at + OPEN.length)) {
    const contentStart = at + OPEN.length;
    const close = reply.indexOf(CLOSE, contentStart);
    const closed = close !== -1;
    const contentEnd = closed ? close : reply.length;
    blocks.push({
      start: at,
      contentStart,
      contentEnd,
      end: closed ? close + CLOSE.length : contentEnd,
      closed,
    });
  }
  // A tag mentioned in prose ("I'll use <code> tags") is followed by words, the block's opening by a line
  // break; prefer the latter. A reply that went on past `</code>` (no stop) may mention the tag after
  // its block, so there the last closed block wins.
  const withCode = blocks.filter((b) => stripFence(reply.slice(b.contentStart, b.contentEnd)).trim());
  const blockForm = withCode.filter((b) => /^[ \t]*(\r?\n|$)/.test(reply.slice(b.contentStart)));
  const pool = blockForm.length > 0 ? blockForm : withCode;
  const closed = pool.filter((b) => b.closed);
  const chosen = (!stoppedAtCloseTag && closed.length > 0 ? closed : pool).at(-1);
  if (!chosen) return null;
  return {
    code: stripFence(reply.slice(chosen.contentStart, chosen.contentEnd)),
    reasoning: joinProse(reply.slice(0, chosen.start), reply.slice(chosen.end)),
  };
}

/** Block content without the line breaks around it or a Python fence a model put inside the tags. */
function stripFence(content: string): string {
  const text = trimNewlines(content);
  const open = /^[ \t]*```([\w+-]*)[ \t]*\r?\n/.exec(text);
  if (!open || !FENCE_LANGS.has(open[1]!.toLowerCase())) return text;
  return trimNewlines(text.slice(open[0].length).replace(/\r?\n[ \t]*```[ \t]*$/, ''));
}

function trimNewlines(text: string): string {
  return text.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, '');
}

/** The last ```python, ```py or plain ``` fence, closed or running to the end of the reply. */
function lastFence(reply: string): { code: string; reasoning: string } | null {
  const lines = reply.split('\n');
  let open: { line: number; lang: string } | null = null;
  let last: { from: number; to: number } | null = null;
  for (const [i, line] of lines.entries()) {
    const fence = /^[ \t]*```([\w+-]*)[ \t]*\r?$/.exec(line);
    if (!fence) continue;
    if (!open) open = { line: i, lang: fence[1]!.toLowerCase() };
    else if (!fence[1]) {
      if (FENCE_LANGS.has(open.lang)) last = { from: open.line, to: i };
      open = null;
    }
  }
  if (open && FENCE_LANGS.has(open.lang)) last = { from: open.line, to: lines.length };
  if (!last) return null;
  return {
    code: trimNewlines(lines.slice(last.from + 1, last.to).join('\n')),
    reasoning: joinProse(lines.slice(0, last.from).join('\n'), lines.slice(last.to + 1).join('\n')),
  };
}

function joinProse(before: string, after: string): string {
  return [before.trim(), after.trim()].filter(Boolean).join('\n');
}

/**
 * The rule for bare code: besides parsing, the text must show Python structure — a call or assignment
 * (`(` or `=`), or a line opening with a statement keyword. A lone word or name parses as Python but is
 * prose ("Done"), so it does not count.
 */
function looksLikeCode(text: string): boolean {
  if (!text) return false;
  if (text.includes('(') || text.includes('=')) return true;
  return /^[ \t]*(import|from|for|while|if|def|class|with|try|print|return|assert|del|raise)\b/m.test(text);
}
