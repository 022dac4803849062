import type { CompactionQueue } from '../context/compaction-queue';
import type { CompactionBudget, Compactor } from '../context/compactor';
import { AUTO_TARGET, contextTooLarge, thresholdTokens, usableWindow } from '../context/context-budget';
import { protect, segmentsOf } from '../context/context-protection';
import {
  buildView,
  type ContextView,
  type ModelMessage,
  viewMessages,
  viewTokens,
  viewUnits,
} from '../context/context-view';
import { renderExperiences } from '../context/experiences-prompt';
import type { MemoryEdits } from '../context/memory-edits';
import { writeMemoryEdit } from '../context/memory-version';
import { nextRequestSize, recordRequest } from '../context/request-size';
import type { SummaryCall } from '../context/summary-writer';
import { estimateTokens } from '../context/token-estimate';
import { CairnError } from '../errors';
import type { Logger } from '../log/logger';
import type { CompactionReason } from '../protocol';
import type { Store } from '../store/store';
import type { ModelSettings } from './model-settings';

/** How much of the usable window a context must grow by before a failed automatic compaction is tried again. */
const RETRY_GROWTH = 0.05;

export interface ContextStepDeps {
  store: Store;
  compactor: Compactor;
  queue: CompactionQueue;
  /** The agent's memory edits, written as a version after the batch that made them. */
  memory: MemoryEdits;
  logger: Logger;
}

export interface ContextStepSetup {
  sessionId: string;
  turnId: string;
  systemPrompt: string;
  settings: ModelSettings;
  signal: AbortSignal;
}

/** One request's context, ready to send, and what to record once the API has counted it. */
export interface PreparedContext {
  system: string;
  messages: ModelMessage[];
  version: number;
  lastMessageId: number | null;
  estimate: number;
  overhead: number;
}

/**
 * What happens to the context before each model request: the agent's queued compactions, at most one
 * automatic compaction when the request passes the threshold, and the check that it fits. Nothing is
 * added to the conversation, so after a compaction the loop goes on exactly where it was.
 */
export class ContextStep {
  /** Per session, the size at which the last automatic compaction failed. */
  private readonly futile = new Map<string, number>();

  constructor(private readonly deps: ContextStepDeps) {}

  async prepare(setup: ContextStepSetup, tools: unknown[], summarize: SummaryCall): Promise<PreparedContext> {
    const { store, queue } = this.deps;
    const { sessionId } = setup;
    // The edits first: a compaction queued in the same batch then compacts the edited context.
    this.applyMemory(setup);
    for (const queued of queue.take(sessionId)) {
      await this.tryCompact(setup, summarize, 'agent', queued.level, null, queued);
    }
    const session = store.sessions.get(sessionId);
    const experiences = store.experiences.forSession(sessionId, session?.project_id ?? null);
    let view = buildView(store, sessionId);
    const system = [setup.systemPrompt, addition(view.state.systemAddition), renderExperiences(experiences)]
      .filter((part) => part)
      .join('\n\n');
    const overhead = estimateTokens({ system, tools });
    let size = nextRequestSize(store, sessionId, view, overhead);
    const usable = usableWindow(setup.settings);
    const limit = thresholdTokens(setup.settings);
    let failure: string | null = null;
    const futile = this.futile.get(sessionId);
    // After a compaction that failed, the next is tried once the context has grown again: not every round.
    const retry =
      futile === undefined || size.tokens > futile + usable * RETRY_GROWTH || size.tokens > usable;
    if (limit !== null && size.tokens > limit && retry) {
      const budget = {
        overhead,
        usable,
        target: Math.floor(limit * AUTO_TARGET),
        threshold: limit,
        scale: size.scale,
      };
      failure = await this.tryCompact(setup, summarize, 'threshold', 'auto', budget);
      view = buildView(store, sessionId);
      size = nextRequestSize(store, sessionId, view, overhead);
      if (failure) this.futile.set(sessionId, size.tokens);
      else this.futile.delete(sessionId);
    }
    if (size.tokens > usable) {
      const protection = protect(view, segmentsOf(view), { explicit: true, tailTokens: 0 });
      throw contextTooLarge({
        settings: setup.settings,
        tokens: size.tokens,
        units: viewUnits(view, protection.ids).map((u) => ({
          ...u,
          tokens: Math.round(u.tokens * size.scale),
        })),
        toolCatalogTokens: Math.round(estimateTokens(tools) * size.scale),
        toolCount: tools.length,
        systemTokens: Math.round(estimateTokens(system) * size.scale),
        experienceCount: experiences.length,
        compaction: failure,
      });
    }
    return {
      system,
      messages: viewMessages(view),
      version: view.state.number,
      lastMessageId: lastMessageId(view),
      estimate: overhead + viewTokens(view),
      overhead,
    };
  }

  /** After the response: the API's count of this request, so the next one's size is known, not guessed. */
  record(sessionId: string, prepared: PreparedContext, usage: ApiUsage): void {
    recordRequest(this.deps.store, sessionId, {
      version: prepared.version,
      last_message_id: prepared.lastMessageId,
      input_tokens:
        usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      estimated_tokens: prepared.estimate,
      overhead_tokens: prepared.overhead,
    });
  }

  /** The batch's memory edits as one version; one that cannot be written leaves the context as it was. */
  private applyMemory(setup: ContextStepSetup): void {
    const pending = this.deps.memory.take(setup.sessionId);
    if (!pending) return;
    try {
      const outcome = writeMemoryEdit(this.deps.store, pending, setup.turnId);
      if (outcome.kind === 'stale') {
        this.deps.logger.warn('memory edit not applied: another context version was written since it began', {
          session: setup.sessionId,
          snapshot: outcome.snapshot,
          head: outcome.head,
        });
      }
    } catch (error) {
      this.deps.logger.warn('memory edit not applied', { session: setup.sessionId, error });
    }
  }

  /** One compaction; a failure (already on the journal) leaves the context as it was and says why. */
  private async tryCompact(
    setup: ContextStepSetup,
    summarize: SummaryCall,
    reason: CompactionReason,
    level: Parameters<Compactor['compact']>[0]['level'],
    budget: CompactionBudget | null,
    queued?: { ref?: string; given?: Parameters<Compactor['compact']>[0]['given'] },
  ): Promise<string | null> {
    try {
      await this.deps.compactor.compact({
        sessionId: setup.sessionId,
        turnId: setup.turnId,
        reason,
        level,
        ...(queued?.ref ? { ref: queued.ref } : {}),
        ...(queued?.given ? { given: queued.given } : {}),
        budget: budget ?? this.explicitBudget(setup),
        summarize,
        signal: setup.signal,
      });
      return null;
    } catch (error) {
      if (setup.signal.aborted) throw error;
      this.deps.logger.warn('compaction failed', { session: setup.sessionId, reason, error });
      return error instanceof CairnError ? error.message : String(error);
    }
  }

  private explicitBudget(setup: ContextStepSetup): CompactionBudget {
    const view = buildView(this.deps.store, setup.sessionId);
    const size = nextRequestSize(this.deps.store, setup.sessionId, view);
    return { overhead: size.overhead, usable: usableWindow(setup.settings), target: null, scale: size.scale };
  }
}

export interface ApiUsage {
  input_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** The session's own addition to the system prompt, which the agent wrote (its memory's set/append). */
function addition(text: string | null): string {
  return text?.trim() ? `<session-instructions>\n${text.trim()}\n</session-instructions>` : '';
}

function lastMessageId(view: ContextView): number | null {
  for (let i = view.items.length - 1; i >= 0; i--) {
    const item = view.items[i]!;
    if (item.kind === 'message') return item.message.id;
  }
  return null;
}
