// Scripts a session where compaction's summary calls and the agent's own requests share one model server.
import type { StructuredSummary } from '../../src/protocol';
import type { Harness } from './harness';
import type { RecordedRequest, ScriptedReply } from './model-server';

export const isSummaryCall = (req: RecordedRequest): boolean =>
  (req.body.tool_choice as { name?: string } | undefined)?.name === 'write_summary';

export function summaryOf(label: string, extra: Partial<StructuredSummary> = {}): StructuredSummary {
  return {
    goal: `goal of ${label}`,
    instruction: 'read the notes',
    discoveries: [`found ${label}`],
    completed: [`finished ${label}`],
    current_status: `status ${label}`,
    likely_next_work: ['keep reading'],
    relevant_files_directories: ['notes.txt: the notes'],
    remember: [],
    ...extra,
  };
}

export interface Script {
  /** Every request the agent made (summary calls left out). */
  agent(): RecordedRequest[];
  summaries(): RecordedRequest[];
}

type Route = (req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
const routes = new WeakMap<Harness, { route: Route }>();

/**
 * Answers the agent's requests with `agent`, in order, and summary calls with `summary` (a write_summary
 * call by default) whenever they come. A later script on the same harness replaces this one.
 */
export function script(
  h: Harness,
  agent: ScriptedReply[],
  summary: (req: RecordedRequest, n: number) => ScriptedReply | Promise<ScriptedReply> = (_req, n) =>
    summaryReply(summaryOf(`part ${n}`)),
): Script {
  const replies = [...agent];
  const seen: RecordedRequest[] = [];
  const summaries: RecordedRequest[] = [];
  const route: Route = (req) => {
    if (isSummaryCall(req)) {
      summaries.push(req);
      return summary(req, summaries.length);
    }
    seen.push(req);
    return replies.shift() ?? { kind: 'http_error', status: 500, type: 'api_error', message: 'script ended' };
  };
  const current = routes.get(h);
  if (current) {
    current.route = route;
  } else {
    const state = { route };
    routes.set(h, state);
    // One handler for the harness's life, putting itself back each time: the queue never runs dry.
    const handler: ScriptedReply = {
      kind: 'handler',
      handle: (req) => {
        h.model.enqueue(handler);
        return state.route(req);
      },
    };
    h.model.enqueue(handler);
  }
  return { agent: () => seen, summaries: () => summaries };
}

export const summaryReply = (summary: StructuredSummary): ScriptedReply => ({
  content: [{ type: 'tool_use', name: 'write_summary', input: summary }],
});

/** Makes the active model's window small, so that a test session reaches it quickly. */
export async function useWindow(
  h: Harness,
  window: { context_window: number; max_tokens: number; compact_threshold: number | null },
): Promise<void> {
  const list = await h.api<{ models: { id: string }[] }>('GET', '/api/models');
  const existing = list.body.models[0];
  const res = existing
    ? await h.api('PATCH', `/api/models/${existing.id}`, window)
    : await h.api('POST', '/api/models', { name: 'small', model: 'cairn-test-model', ...window });
  if (res.status >= 300) throw new Error(`model config: ${res.status} ${JSON.stringify(res.body)}`);
}

export const readRound = (file: string, text = 'Reading.'): ScriptedReply => ({
  content: [
    { type: 'text', text },
    { type: 'tool_use', name: 'Read', input: { path: file } },
  ],
});

export const done = (text = 'Done.'): ScriptedReply => ({ content: [{ type: 'text', text }] });
