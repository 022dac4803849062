import type { AgentRuntime } from '../../agent/agent-runtime';
import { createModelClient } from '../../agent/model-client';
import { summaryModel } from '../../agent/summary-model';
import { clipVersionPage, inspectUnits } from '../../context/agent-page';
import { checkRef } from '../../context/compaction-planner';
import type { CompactionQueue, QueuedCompaction } from '../../context/compaction-queue';
import type { Compactor } from '../../context/compactor';
import { thresholdTokens, usableWindow } from '../../context/context-budget';
import { protect, segmentsOf, tailBudget } from '../../context/context-protection';
import { stateOf } from '../../context/context-state';
import type { ContextToolPort } from '../../context/context-tool';
import { buildView, type ContextView, viewMessages, viewUnits } from '../../context/context-view';
import { nextRequestSize } from '../../context/request-size';
import type { SummaryCall } from '../../context/summary-writer';
import { badRequest, notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import type {
  CompactRequest,
  CompactResponse,
  ContextInfo,
  ContextUnit,
  ContextVersionList,
  ContextVersionQuery,
  ContextVersionView,
  Experience,
  ExperienceScope,
} from '../../protocol';
import type { Store } from '../../store/store';
import type { ModelService } from '../models/model-service';
import { versionInfo, versionInfos } from './version-info';

/** What the Context tool's remember and forget write through: the experiences service. */
export interface ContextMemory {
  listForSession(sessionId: string): Experience[];
  addToSession(
    sessionId: string,
    input: { text: string; scope?: ExperienceScope },
    author: 'agent' | 'user',
  ): Experience;
  remove(id: string): void;
}

export interface ContextServiceOptions {
  store: Store;
  models: ModelService;
  runtime: AgentRuntime;
  compactor: Compactor;
  queue: CompactionQueue;
  memory: ContextMemory;
  logger: Logger;
  modelMaxRetries: number;
}

/** The units of the next request, their sizes scaled as the request's estimate is, protected ones marked. */
function scaledUnits(view: ContextView, usable: number, scale: number): ContextUnit[] {
  const protection = protect(view, segmentsOf(view), {
    explicit: false,
    tailTokens: tailBudget(usable, scale),
  });
  return viewUnits(view, protection.ids).map((u) => ({ ...u, tokens: Math.round(u.tokens * scale) }));
}

/** A session's context as clients and the agent see it: its size, units, versions, and "compact now". */
export class ContextService implements ContextToolPort {
  constructor(private readonly options: ContextServiceOptions) {}

  /** `units: false` leaves the units out (empty): listing thousands of them costs both ends. */
  info(sessionId: string, options: { units?: boolean } = {}): ContextInfo {
    this.session(sessionId);
    const { store, models, queue } = this.options;
    const view = buildView(store, sessionId);
    const size = nextRequestSize(store, sessionId, view);
    const window = models.activeWindow();
    return {
      version: view.state.number,
      estimated_tokens: size.tokens,
      estimated: size.estimated,
      usable_window: usableWindow(window),
      compact_threshold: window.compactThreshold,
      threshold_tokens: thresholdTokens(window),
      compaction_pending: queue.pending(sessionId),
      system_prompt_addition: view.state.systemAddition,
      units: options.units === false ? [] : scaledUnits(view, usableWindow(window), size.scale),
    };
  }

  versions(sessionId: string): ContextVersionList {
    this.session(sessionId);
    const { store } = this.options;
    return { versions: versionInfos(store, store.contextVersions.list(sessionId)) };
  }

  /** What the model saw at a version: its summaries and stubs over the history of that time, paged. */
  version(sessionId: string, number: number, query: ContextVersionQuery): ContextVersionView {
    this.session(sessionId);
    const { store } = this.options;
    const rows = store.contextVersions.list(sessionId);
    const row = rows.find((v) => v.number === number);
    if (!row) throw notFound('Context version', String(number));
    // A version was what the model saw until the next one was written.
    const next = rows.find((v) => v.number === number + 1);
    const view = buildView(store, sessionId, stateOf(row), next?.upto_message_id ?? null);
    const messages = viewMessages(view).map((m, index) => ({ index, ...m }));
    const end = Math.min(query.before ?? messages.length, messages.length);
    const start = Math.max(0, end - query.limit);
    const head = store.contextVersions.head(sessionId)?.number ?? 1;
    return {
      version: versionInfo(store, row),
      head: number === head,
      messages: messages.slice(start, end),
      total: messages.length,
      next_before: start > 0 ? start : null,
    };
  }

  /** The user's "compact now": only between turns, since a turn compacts its own context. */
  async compactNow(
    sessionId: string,
    request: CompactRequest,
    signal?: AbortSignal,
  ): Promise<CompactResponse> {
    this.session(sessionId);
    const { store, runtime, compactor, models } = this.options;
    // The model and its key are needed only for a summary: a Block compaction works without them.
    const summarize: SummaryCall = async (summaryRequest, summarySignal) => {
      const settings = await models.activeSettings();
      const client = createModelClient(settings, {
        maxRetries: this.options.modelMaxRetries,
        logger: this.options.logger,
      });
      return summaryModel(client, settings)(summaryRequest, summarySignal);
    };
    const result = await runtime.whileIdle(sessionId, async () => {
      const view = buildView(store, sessionId);
      const size = nextRequestSize(store, sessionId, view);
      return compactor.compact({
        sessionId,
        turnId: null,
        reason: 'user',
        level: request.level ?? 'auto',
        budget: {
          overhead: size.overhead,
          usable: usableWindow(models.activeWindow()),
          target: null,
          scale: size.scale,
        },
        summarize,
        signal: signal ?? new AbortController().signal,
      });
    });
    return { ...this.info(sessionId), compacted: versionInfo(store, result.version) };
  }

  // ---- the Context tool ----

  async inspect(sessionId: string): Promise<unknown> {
    return {
      ...inspectUnits(this.info(sessionId)),
      experiences: this.options.memory.listForSession(sessionId),
    };
  }

  queue(sessionId: string, compaction: QueuedCompaction): { queued: number } {
    if (compaction.ref) {
      const view: ContextView = buildView(this.options.store, sessionId);
      checkRef(view, protect(view, segmentsOf(view), { explicit: true, tailTokens: 0 }), compaction.ref);
    }
    return { queued: this.options.queue.add(sessionId, compaction) };
  }

  read(sessionId: string, version: number, before: number | undefined): unknown {
    const page = this.version(sessionId, version, { limit: 20, ...(before !== undefined ? { before } : {}) });
    const { toolCalls } = this.options.store;
    return clipVersionPage(page, (toolUseId) => toolCalls.resultFile(sessionId, toolUseId));
  }

  remember(sessionId: string, text: string, scope: ExperienceScope): Experience {
    if (scope === 'project' && this.isFork(sessionId)) {
      throw badRequest(
        'A fork cannot change its parent\'s project experiences: remember it with scope "session" (this fork\'s own), or put it in your final reply for the parent to keep.',
      );
    }
    return this.options.memory.addToSession(sessionId, { text, scope }, 'agent');
  }

  forget(sessionId: string, id: string): void {
    // The agent forgets only what it can see: this session's experiences and its project's.
    const experience = this.options.memory.listForSession(sessionId).find((e) => e.id === id);
    if (!experience) throw notFound('Experience', id);
    // A fork sees its project's experiences but may not change them: they are its parent's too.
    if (experience.scope !== 'session' && this.isFork(sessionId)) {
      throw badRequest(
        `A fork can forget only its own session's experiences; ${id} is its project's, kept for its parent too.`,
      );
    }
    this.options.memory.remove(id);
  }

  private isFork(sessionId: string): boolean {
    return this.options.store.sessions.forkOrigin(sessionId) !== null;
  }

  private session(sessionId: string) {
    const session = this.options.store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    return session;
  }
}
