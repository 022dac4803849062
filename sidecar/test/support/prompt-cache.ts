// The Messages API's prompt cache, as the test model server keeps it: prefixes ending at a `cache_control`
// breakpoint are stored; a later request whose prefix matches one (up to 20 blocks before one of its own
// breakpoints) reads it. Usage then splits the input as the API does: read, written, and the rest.
import { createHash } from 'node:crypto';
import type { MessagesRequestBody } from './model-server';

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The API's limit on breakpoints per request, and how far back from one it looks for a hit. */
export const MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** The request's cacheable pieces in the order the API reads them: tools, system, then message blocks. */
function pieces(body: MessagesRequestBody): { text: string; marked: boolean }[] {
  const out: { text: string; marked: boolean }[] = [];
  const add = (value: unknown): void => {
    const marked = typeof value === 'object' && value !== null && 'cache_control' in value;
    // The mark itself is not part of what is cached: moving it must not change the prefix.
    const { cache_control: _mark, ...rest } = (
      typeof value === 'object' && value !== null ? value : {}
    ) as Record<string, unknown>;
    out.push({ text: JSON.stringify(typeof value === 'object' && value !== null ? rest : value), marked });
  };
  for (const tool of body.tools ?? []) add(tool);
  if (typeof body.system === 'string') add(body.system);
  else if (Array.isArray(body.system)) for (const block of body.system) add(block);
  for (const message of body.messages) {
    out.push({ text: `<${message.role}>`, marked: false });
    if (typeof message.content === 'string') add(message.content);
    else if (Array.isArray(message.content)) for (const block of message.content) add(block);
  }
  return out;
}

export class PromptCache {
  private readonly stored = new Set<string>();
  /** Requests seen and the tokens the cache served, for a test's hit ratio. */
  readonly totals = { input: 0, read: 0, written: 0 };

  /** `minTokens`: a prefix shorter than this is never cached (the API's minimum is 1024 or more). */
  constructor(private readonly minTokens = 1024) {}

  /** Counts breakpoints, for the API's 400 when there are more than four. */
  static breakpoints(body: MessagesRequestBody): number {
    return pieces(body).filter((p) => p.marked).length;
  }

  /** Serves and stores this request's prefixes; `totalTokens` is the whole input's size. */
  use(body: MessagesRequestBody, totalTokens: number): CacheUsage {
    const list = pieces(body);
    const hashes: string[] = [];
    const sizes: number[] = [];
    let hash = '';
    let chars = 0;
    for (const piece of list) {
      hash = createHash('sha256').update(hash).update(piece.text).digest('hex');
      chars += piece.text.length;
      hashes.push(hash);
      sizes.push(tokens(chars));
    }
    const marks = list.flatMap((p, i) => (p.marked ? [i] : []));
    let hit = -1;
    for (const mark of [...marks].reverse()) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK_BLOCKS + 1) && hit < 0; i--) {
        if (this.stored.has(hashes[i]!)) hit = i;
      }
      if (hit >= 0) break;
    }
    const last = marks.at(-1) ?? -1;
    const read = hit >= 0 ? sizes[hit]! : 0;
    let written = 0;
    for (const mark of marks) {
      if (sizes[mark]! < this.minTokens || mark <= hit) continue;
      this.stored.add(hashes[mark]!);
    }
    if (last > hit && sizes[last]! >= this.minTokens) written = sizes[last]! - read;
    const total = Math.max(totalTokens, read + written);
    const usage = {
      input_tokens: total - read - written,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
    };
    this.totals.input += usage.input_tokens;
    this.totals.read += read;
    this.totals.written += written;
    return usage;
  }
}

/** The request without its cache marks: what must stay the same from one request to the next. */
export function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (typeof value !== 'object' || value === null) return value;
  const { cache_control: _mark, ...rest } = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, unmarked(v)]));
}
