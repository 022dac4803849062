import { CairnError } from '../errors';
import { redact } from '../log/redact';
import type {
  CompactionLevel,
  CompactionReason,
  ContentBlock,
  ErrorInfo,
  StructuredSummary,
  SummaryKernelVariable,
} from '../protocol';
import type { ContextVersion } from '../store/context-versions-repo';
import type { Store } from '../store/store';
import { type CompactionPlan, checkRef, LEVELS, planCompaction } from './compaction-planner';
import { protect, segmentsOf, tailBudget } from './context-protection';
import type { ContextCut, ContextState } from './context-state';
import { buildView, type ContextView, viewTokens } from './context-view';
import { rememberFromSummary } from './remember';
import { type SummaryCall, writeSummary } from './summary-writer';

/** A compaction that saves less than this fraction of the request escalates one level. */
export const MIN_PROGRESS = 0.1;

/** What compaction needs from outside the context layer: files and the kernels' variables. */
export interface CompactorPorts {
  store: Store;
  /** The file holding a tool result in full (its call's result.txt), when there is one. */
  resultFile(sessionId: string, toolUseId: string): string | null;
  /** Saves a long text block so that Read can bring it back; returns its path. */
  saveBlock(sessionId: string, messageId: number, index: number, text: string): string;
  /** The session's live kernels' variables, for Turn and Session summaries; [] without kernels. */
  kernelVariables?(sessionId: string, signal: AbortSignal): Promise<SummaryKernelVariable[]>;
}

export interface CompactionBudget {
  /** Estimated tokens of the system prompt, tools and experiences. */
  overhead: number;
  /** The window minus the output budget, in the API's tokens. */
  usable: number;
  /** Automatic compaction aims below this (API tokens); null for an explicit one. */
  target: number | null;
  /** Automatic compaction must get below this at least (API tokens): the threshold. */
  threshold?: number;
  /** The API's tokens per estimated token, from the last request (1 without one). */
  scale: number;
}

export interface CompactionRequest {
  sessionId: string;
  turnId: string | null;
  reason: CompactionReason;
  level: CompactionLevel | 'auto';
  ref?: string;
  /** The agent's own summary: no summary call is made, and a version is always written. */
  given?: StructuredSummary;
  budget: CompactionBudget;
  summarize: SummaryCall;
  signal: AbortSignal;
}

export interface CompactionResult {
  version: ContextVersion;
  level: CompactionLevel;
  tokensBefore: number;
  tokensAfter: number;
  summary: StructuredSummary | null;
}

/** Applies compactions: plans, writes summaries, and records the result as a new context version. */
export class Compactor {
  constructor(private readonly ports: CompactorPorts) {}

  async compact(request: CompactionRequest): Promise<CompactionResult> {
    const { store } = this.ports;
    const { budget } = request;
    const known = (estimate: number) => Math.round(estimate * budget.scale);
    const view = buildView(store, request.sessionId);
    const segments = segmentsOf(view);
    const explicit = request.reason !== 'threshold';
    const protection = protect(view, segments, {
      explicit,
      tailTokens: tailBudget(budget.usable, budget.scale),
    });
    if (request.ref) checkRef(view, protection, request.ref);
    const before = budget.overhead + viewTokens(view);
    // At least what the no-progress guard asks for: a need of zero would leave only the Session level.
    const need =
      budget.target !== null
        ? Math.max(before * MIN_PROGRESS, before - budget.target / budget.scale)
        : request.level === 'auto'
          ? before * 0.5
          : null;
    let levels = request.level === 'auto' ? LEVELS : [request.level];
    let started: CompactionLevel | null = null;
    try {
      for (;;) {
        const plan = planCompaction({
          view,
          segments,
          protection,
          need,
          ...(budget.threshold !== undefined ? { floor: before - budget.threshold / budget.scale } : {}),
          levels,
          ...(request.ref ? { ref: request.ref } : {}),
        });
        if (!plan && !request.given) throw nothingToCut(request);
        const level = plan?.level ?? 'session';
        if (!started) {
          started = level;
          store.events.append(request.sessionId, {
            type: 'context.compaction_started',
            turn_id: request.turnId,
            level,
            reason: request.reason,
            tokens_before: known(before),
          });
        }
        const applied = await this.apply(request, view, plan);
        const after = budget.overhead + viewTokens(buildView(store, request.sessionId, applied.state));
        const next = LEVELS[LEVELS.indexOf(level) + 1];
        const small = before - after < before * MIN_PROGRESS;
        const escalates = !request.given && (!explicit || request.level === 'auto');
        if (escalates && (small || known(after) > budget.usable)) {
          // No loops: a cut that does not help is not written; the next level is tried instead, and after
          // the last one the compaction fails rather than write a version that saves nothing.
          if (next) {
            levels = LEVELS.slice(LEVELS.indexOf(next));
            continue;
          }
          if (small) throw noProgress(known(before), known(after));
        }
        return this.record(request, level, applied, known(before), known(after), rememberedIn(view.state));
      }
    } catch (error) {
      const info: ErrorInfo = request.signal.aborted
        ? {
            code: 'cancelled',
            message: 'The compaction was cancelled with the turn; the context stays as it was.',
          }
        : error instanceof CairnError
          ? error.toJSON()
          : { code: 'internal', message: error instanceof Error ? error.message : String(error) };
      store.events.append(request.sessionId, {
        type: 'context.compaction_failed',
        turn_id: request.turnId,
        level: started,
        reason: request.reason,
        error: info,
      });
      throw error;
    }
  }

  /** The state a plan leads to, with the summary it wrote (summary calls happen here, or the agent's is used). */
  private async apply(
    request: CompactionRequest,
    view: ContextView,
    plan: CompactionPlan | null,
  ): Promise<{ state: ContextState; summary: StructuredSummary | null }> {
    const state = view.state;
    const number = (this.ports.store.contextVersions.head(request.sessionId)?.number ?? 0) + 1;
    let cuts: ContextCut[] = [...state.cuts];
    if (!plan) return { state: { ...state, number, summary: request.given! }, summary: request.given! };
    for (const target of plan.blocks) {
      const text = blockText(target.block);
      const file =
        target.block.type === 'tool_result'
          ? this.ports.resultFile(request.sessionId, String(target.block.tool_use_id))
          : this.ports.saveBlock(request.sessionId, target.messageId, target.index, text);
      cuts.push({
        kind: 'block',
        message_id: target.messageId,
        index: target.index,
        chars: text.length,
        tokens: target.tokens,
        file,
        version: number,
      });
    }
    let summary: StructuredSummary | null = null;
    // With the agent's own summary one range is compacted: the summary is about it.
    const ranges = request.given ? plan.ranges.slice(0, 1) : plan.ranges;
    for (const range of ranges) {
      summary = await this.summarize(request, range.kind, range.items, range.kind === 'turn');
      cuts = cuts.filter((c) => !within(c, range.from, range.to));
      cuts.push({
        kind: range.kind,
        from_message_id: range.from,
        to_message_id: range.to,
        turn_id: range.turnId,
        rounds: range.rounds,
        tokens: range.tokens,
        summary,
        version: number,
      });
    }
    cuts.sort((a, b) => cutStart(a) - cutStart(b));
    if (plan.session) {
      summary = await this.summarize(request, 'session', plan.session.items, true);
      const first = plan.session.firstMessageId ?? 0;
      return {
        state: {
          number,
          firstMessageId: plan.session.firstMessageId,
          summary,
          cuts: cuts.filter((c) => cutStart(c) >= first),
          kept: plan.session.kept,
          // The summary covers the edited messages too; the system prompt's addition stays.
          edited: null,
          systemAddition: state.systemAddition,
        },
        summary,
      };
    }
    return { state: { ...state, number, cuts }, summary };
  }

  private async summarize(
    request: CompactionRequest,
    level: CompactionLevel,
    items: CompactionPlan['ranges'][number]['items'],
    withKernels: boolean,
  ): Promise<StructuredSummary> {
    // A repr may show a credential the code held: it goes into SQLite, events and later requests redacted.
    const variables = (
      withKernels && this.ports.kernelVariables
        ? await this.ports.kernelVariables(request.sessionId, request.signal).catch(() => [])
        : []
    ).map((v) => ({ ...v, repr: redact(v.repr) }));
    // The agent's own summary needs no call, but a Turn or Session one still carries what is in memory.
    if (request.given)
      return variables.length > 0 ? { ...request.given, kernel_variables: variables } : request.given;
    return writeSummary({
      level,
      items,
      call: request.summarize,
      budgetTokens: Math.floor((request.budget.usable * 0.6) / request.budget.scale),
      kernelVariables: variables,
      signal: request.signal,
    });
  }

  private record(
    request: CompactionRequest,
    level: CompactionLevel,
    applied: { state: ContextState; summary: StructuredSummary | null },
    tokensBefore: number,
    tokensAfter: number,
    remembered: ReadonlySet<string>,
  ): CompactionResult {
    const { store } = this.ports;
    return store.transaction(() => {
      const head = store.contextVersions.head(request.sessionId);
      const version = store.contextVersions.create({
        sessionId: request.sessionId,
        parentId: head?.id ?? null,
        reason: request.reason,
        level,
        turnId: request.turnId,
        tokensBefore,
        tokensAfter,
        firstMessageId: applied.state.firstMessageId,
        summary: applied.state.summary ? JSON.stringify(applied.state.summary) : null,
        cuts: applied.state.cuts,
        keptMessageIds: applied.state.kept,
        uptoMessageId: store.messages.last(request.sessionId)?.id ?? null,
        edited: applied.state.edited,
        systemAddition: applied.state.systemAddition,
      });
      if (applied.summary)
        rememberFromSummary(store, request.sessionId, request.turnId, applied.summary, remembered);
      store.events.append(request.sessionId, {
        type: 'context.compacted',
        turn_id: request.turnId,
        version: version.number,
        level,
        reason: request.reason,
        tokens_before: tokensBefore,
        tokens_after: tokensAfter,
        summary: applied.summary,
      });
      return { version, level, tokensBefore, tokensAfter, summary: applied.summary };
    });
  }
}

/** What the summaries a state already holds asked to remember: made experiences then, or forgotten since. */
function rememberedIn(state: ContextState): Set<string> {
  const summaries = [state.summary, ...state.cuts.map((c) => (c.kind === 'block' ? null : c.summary))];
  return new Set(summaries.flatMap((s) => s?.remember ?? []).map((text) => text.trim()));
}

function nothingToCut(request: CompactionRequest): CairnError {
  const what = request.ref ? `unit ${request.ref}` : 'the context';
  const level = request.level === 'auto' ? 'any level' : `level ${request.level}`;
  return new CairnError(
    'bad_request',
    `Nothing in ${what} can be cut at ${level}: what is left is protected (the user's latest message, the ` +
      'current round) or already compacted.',
  );
}

function noProgress(before: number, after: number): CairnError {
  return new CairnError(
    'context_window_exceeded',
    `No compaction level cut the context by at least ${MIN_PROGRESS * 100}% (about ${before} tokens before, ` +
      `${after} after), so none was written and the context stays as it was.`,
  );
}

function blockText(block: ContentBlock): string {
  if (block.type === 'text') return String(block.text ?? '');
  const content = block.content;
  if (typeof content === 'string') return content;
  return JSON.stringify(content ?? '');
}

const cutStart = (cut: ContextCut) => (cut.kind === 'block' ? cut.message_id : cut.from_message_id);

function within(cut: ContextCut, from: number, to: number): boolean {
  return cut.kind === 'block'
    ? cut.message_id >= from && cut.message_id <= to
    : cut.from_message_id >= from && cut.to_message_id <= to;
}
