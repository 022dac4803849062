import { CairnError } from '../errors';
import type { CompactionLevel, ContentBlock } from '../protocol';
import type { Protection, Segment } from './context-protection';
import type { ContextView, ViewItem } from './context-view';

/** Blocks smaller than this are not worth a stub. */
export const MIN_BLOCK_TOKENS = 200;
/** What a stub costs in the context, about. */
export const STUB_TOKENS = 80;
/** What a summary is expected to cost, before it is written. */
export const SUMMARY_TOKENS = 600;
/** Summary calls one plan may make: more than this and the next level is the cheaper one. */
const MAX_SUMMARY_CALLS = 3;

export const LEVELS: readonly CompactionLevel[] = ['block', 'loop', 'turn', 'session'];

export interface BlockTarget {
  messageId: number;
  index: number;
  block: ContentBlock;
  tokens: number;
}

export interface RangeTarget {
  kind: 'loop' | 'turn';
  items: ViewItem[];
  from: number;
  to: number;
  turnId: string | null;
  rounds: number;
  tokens: number;
}

export interface CompactionPlan {
  level: CompactionLevel;
  blocks: BlockTarget[];
  ranges: RangeTarget[];
  /** Session level: the items the summary replaces (an earlier summary among them is merged). */
  session: { items: ViewItem[]; firstMessageId: number | null; kept: number[] } | null;
  /** Estimated tokens the plan saves. */
  savings: number;
}

export interface PlanRequest {
  view: ContextView;
  segments: Segment[];
  protection: Protection;
  /** Tokens to save to reach the target (automatic); null: everything the level can cut (explicit). */
  need: number | null;
  /** Tokens to save to get under the threshold: a level that saves this, if none reaches `need`, beats a higher one. */
  floor?: number;
  /** The lowest level to consider (escalation starts higher); an explicit level is the only one. */
  levels: readonly CompactionLevel[];
  /** A unit's ref: only it (and what its level takes with it) is compacted. */
  ref?: string;
}

/**
 * The cheapest plan: the first level that saves `need` alone, oldest first, never touching what is
 * protected. When no level saves enough, the highest one that saves anything (the caller escalates).
 */
export function planCompaction(request: PlanRequest): CompactionPlan | null {
  const candidates = request.levels.map((level) => planLevel(request, level)).filter((p) => p !== null);
  if (request.need === null) return candidates[0] ?? null;
  return (
    candidates.find((p) => p.savings >= request.need!) ??
    candidates.find((p) => request.floor !== undefined && p.savings >= request.floor) ??
    candidates.at(-1) ??
    null
  );
}

function planLevel(request: PlanRequest, level: CompactionLevel): CompactionPlan | null {
  const empty = { level, blocks: [], ranges: [], session: null, savings: 0 };
  if (level === 'block') {
    const blocks = take(blockTargets(request), request.need, (b) => b.tokens - STUB_TOKENS);
    return blocks.length ? { ...empty, blocks, savings: sum(blocks, (b) => b.tokens - STUB_TOKENS) } : null;
  }
  if (level === 'session') {
    const session = sessionTarget(request);
    if (!session) return null;
    return { ...empty, session, savings: sum(session.items, (i) => i.tokens) - SUMMARY_TOKENS };
  }
  const all = level === 'loop' ? loopTargets(request) : turnTargets(request);
  const ranges = take(all, request.need, (r) => r.tokens - SUMMARY_TOKENS).slice(0, MAX_SUMMARY_CALLS);
  if (ranges.length === 0) return null;
  return { ...empty, ranges, savings: sum(ranges, (r) => r.tokens - SUMMARY_TOKENS) };
}

/** Oldest first until `need` is saved (all of them without a need); only those that save something. */
function take<T>(list: T[], need: number | null, saves: (t: T) => number): T[] {
  const result: T[] = [];
  let saved = 0;
  for (const item of list) {
    if (saves(item) <= 0) continue;
    if (need !== null && saved >= need) break;
    result.push(item);
    saved += saves(item);
  }
  return result;
}

function unprotectedMessages(request: PlanRequest) {
  return request.view.items.filter(
    (i): i is Extract<ViewItem, { kind: 'message' }> =>
      i.kind === 'message' && !request.protection.ids.has(i.message.id),
  );
}

function blockTargets(request: PlanRequest): BlockTarget[] {
  const ref = parseRef(request.ref);
  const targets: BlockTarget[] = [];
  for (const item of unprotectedMessages(request)) {
    if (ref && ref.messageId !== item.message.id) continue;
    item.content.forEach((block, index) => {
      const size = item.blocks[index]!;
      if (size.stubbed || (block.type !== 'tool_result' && block.type !== 'text')) return;
      if (ref?.index !== undefined && ref.index !== index) return;
      // A unit named on purpose is stubbed whatever its size, as long as the stub is smaller.
      if (size.tokens < (ref ? STUB_TOKENS + 1 : MIN_BLOCK_TOKENS)) return;
      targets.push({
        messageId: item.message.id,
        index,
        block: item.message.content[index]!,
        tokens: size.tokens,
      });
    });
  }
  return targets;
}

/** Past rounds in runs of one turn (one summary call per run), oldest first. */
function loopTargets(request: PlanRequest): RangeTarget[] {
  const { segments, protection } = request;
  const ref = parseRef(request.ref);
  const runs: RangeTarget[] = [];
  let run: RangeTarget | null = null;
  segments.slice(0, protection.tailSegment).forEach((segment) => {
    const raw = segment.round && segment.items.every((i) => i.kind === 'message');
    const named = !ref || segment.items.some((i) => i.kind === 'message' && i.message.id === ref.messageId);
    if (!raw || !named) {
      run = null;
      return;
    }
    const ids = segment.items.map((i) => (i.kind === 'message' ? i.message.id : 0));
    if (run && run.turnId === segment.turnId) {
      run.items.push(...segment.items);
      run.to = Math.max(...ids);
      run.rounds += 1;
      run.tokens += segment.tokens;
      return;
    }
    run = {
      kind: 'loop',
      items: [...segment.items],
      from: Math.min(...ids),
      to: Math.max(...ids),
      turnId: segment.turnId,
      rounds: 1,
      tokens: segment.tokens,
    };
    runs.push(run);
  });
  return runs;
}

/** Whole past turns (never the current one), each made one summary, oldest first. */
function turnTargets(request: PlanRequest): RangeTarget[] {
  const { segments, protection } = request;
  const ref = request.ref ? refTurn(request) : null;
  const byTurn = new Map<string, RangeTarget>();
  const spoiled = new Set<string>();
  segments.forEach((segment, index) => {
    const turnId = segment.turnId;
    if (!turnId || turnId === protection.currentTurnId) return;
    if (index >= protection.tailSegment) spoiled.add(turnId);
    const ids = segment.items.flatMap((i) =>
      i.kind === 'message'
        ? [i.message.id]
        : i.kind === 'range'
          ? [i.cut.from_message_id, i.cut.to_message_id]
          : [],
    );
    const target = byTurn.get(turnId);
    if (target) {
      target.items.push(...segment.items);
      target.to = Math.max(target.to, ...ids);
      target.rounds += segment.round ? 1 : 0;
      target.tokens += segment.tokens;
    } else {
      byTurn.set(turnId, {
        kind: 'turn',
        items: [...segment.items],
        from: Math.min(...ids),
        to: Math.max(...ids),
        turnId,
        rounds: segment.round ? 1 : 0,
        tokens: segment.tokens,
      });
    }
  });
  return [...byTurn.values()].filter((t) => {
    if (spoiled.has(t.turnId!) || (ref && ref !== t.turnId)) return false;
    // A turn that is one summary already has nothing left to give.
    return !(t.items.length === 1 && t.items[0]!.kind === 'range' && t.items[0]!.cut.kind === 'turn');
  });
}

/** Everything before the protected tail, the user's latest message kept. */
function sessionTarget(request: PlanRequest): CompactionPlan['session'] {
  const { segments, protection } = request;
  const before = segments.slice(0, protection.tailSegment).flatMap((s) => s.items);
  const items = before.filter((i) => !(i.kind === 'message' && i.message.id === protection.promptId));
  if (items.length === 0 || (items.length === 1 && items[0]!.kind === 'summary')) return null;
  const tail = segments.slice(protection.tailSegment).flatMap((s) => s.items);
  const first = tail.find((i) => i.kind === 'message');
  const firstMessageId = first?.kind === 'message' ? first.message.id : null;
  const keepPrompt =
    protection.promptId !== null && (firstMessageId === null || protection.promptId < firstMessageId);
  const newest = Math.max(
    0,
    ...before.map((i) =>
      i.kind === 'message' ? i.message.id : i.kind === 'range' ? i.cut.to_message_id : 0,
    ),
  );
  return {
    items,
    // Nothing after the summary but the prompt: the history goes on after the newest message it covers.
    firstMessageId: firstMessageId ?? newest + 1,
    kept: keepPrompt ? [protection.promptId!] : [],
  };
}

function parseRef(ref: string | undefined): { messageId: number; index?: number } | null {
  if (!ref) return null;
  const match = /^(?:m|l|b):(\d+)(?::(\d+))?$/.exec(ref);
  if (!match) return null;
  return { messageId: Number(match[1]), ...(match[2] !== undefined ? { index: Number(match[2]) } : {}) };
}

function refTurn(request: PlanRequest): string | null {
  const ref = request.ref!;
  if (ref.startsWith('t:')) return ref.slice(2);
  const parsed = parseRef(ref);
  for (const item of request.view.items) {
    if (item.kind === 'message' && item.message.id === parsed?.messageId) return item.message.turn_id;
    if (item.kind === 'range' && item.ref === ref) return item.cut.turn_id;
  }
  return null;
}

/** A ref the context does not hold, or one that is protected: said plainly, with what to do. */
export function checkRef(view: ContextView, protection: Protection, ref: string): void {
  const parsed = parseRef(ref);
  const item = view.items.find(
    (i) => i.ref === ref || (parsed && i.kind === 'message' && i.message.id === parsed.messageId),
  );
  if (!item) {
    throw new CairnError(
      'bad_request',
      `The context has no unit ${ref}. Inspect the context for the current refs.`,
    );
  }
  // Without this, a ref no level can parse would compact as if none was given: the whole context.
  if (item.kind === 'edited') {
    throw new CairnError(
      'bad_request',
      `Unit ${ref} is a message of your own memory edit: compact it with the session level (no ref), or ` +
        'change it with runtime.selfref.memory.',
    );
  }
  if (item.kind === 'message' && protection.ids.has(item.message.id)) {
    throw new CairnError(
      'bad_request',
      `Unit ${ref} is protected (the user's latest message or the current round) and is kept as it is.`,
    );
  }
}

const sum = <T>(list: T[], of: (t: T) => number) => list.reduce((s, t) => s + of(t), 0);
