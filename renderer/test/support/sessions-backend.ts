import { vi } from 'vitest';
import type {
  Project,
  SearchHit,
  SearchResult,
  Session,
  SessionDetail,
  SessionExport,
  TurnWithDetails,
} from '../../../sidecar/src/protocol';
import { capabilitiesBody } from '../../../sidecar/test/support/api-bodies';
import { fakeSocketServer } from './fake-socket';
import { storedTurn } from './tool-calls';

// A small in-memory Cairn behind the global fetch and WebSocket, for the app's search, branch, export and
// import: sessions with paged turns, a search that answers what the test sets, branches that copy turns.

export const BACKEND = { url: 'http://127.0.0.1:41017', token: 'tok' };
export const WS = 'ws://127.0.0.1:41017/api/ws';

export const PROJECT: Project = {
  id: 'p1',
  path: '/work/repo',
  name: 'repo',
  created_at: '2026-01-01T00:00:00.000Z',
  last_opened_at: '2026-01-01T00:00:00.000Z',
  python_path: null,
  sandbox: 'off',
  sandbox_network: 'on',
};

export function session(patch: Partial<Session> & { id: string; title: string }): Session {
  return {
    project_id: null,
    approval: 'auto',
    mode: 'tools',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    running_turn_id: null,
    parent_session_id: null,
    parent_turn_id: null,
    branched_from: null,
    ...patch,
  };
}

/** `count` finished turns t1…tN of a session; the newest one used tokens and has an estimated cost. */
export function turns(sessionId: string, count: number): TurnWithDetails[] {
  return Array.from({ length: count }, (_, i) => {
    const turn = { ...storedTurn(`${sessionId}-t${i + 1}`, [], [], i + 1), session_id: sessionId };
    if (i + 1 < count) return turn;
    const usage = {
      input_tokens: 1200,
      output_tokens: 300,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    return { ...turn, usage, cost: 0.0123 };
  });
}

export function hit(patch: Partial<SearchHit> & { session_id: string; ref: string }): SearchHit {
  return {
    turn_id: null,
    kind: 'message',
    snippet: '',
    match_ranges: [],
    session_title: '',
    project_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notFound = (what: string) => json(404, { error: { code: 'not_found', message: `${what} not found.` } });

export interface Seen {
  method: string;
  path: string;
  body: unknown;
}

/** Stubs fetch and WebSocket with the backend; `search` answers GET /api/search (by its query). */
export function stubSessionsBackend(options: {
  sessions: Session[];
  turns: Record<string, TurnWithDetails[]>;
  search?: (query: URLSearchParams) => SearchResult;
}) {
  const sessions = options.sessions.map((s) => ({ ...s }));
  const history = new Map(Object.entries(options.turns));
  const seen: Seen[] = [];
  let next = 1;

  const detail = (s: Session): SessionDetail => {
    const own = history.get(s.id) ?? [];
    const sum = (pick: (t: TurnWithDetails) => number) => own.reduce((n, t) => n + pick(t), 0);
    const priced = own.some((t) => t.cost !== null);
    return {
      ...s,
      forks: [],
      branches: sessions
        .filter((b) => b.branched_from?.session_id === s.id)
        .map((b) => ({
          session_id: b.id,
          title: b.title,
          turn_id: b.branched_from!.turn_id,
          created_at: b.created_at,
        })),
      usage: {
        input_tokens: sum((t) => t.usage?.input_tokens ?? 0),
        output_tokens: sum((t) => t.usage?.output_tokens ?? 0),
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cost: priced ? sum((t) => t.cost ?? 0) : null,
      },
    };
  };
  const exported = (s: Session): SessionExport => ({
    format: 'cairn.session',
    version: 1,
    exported_at: '2026-01-02T00:00:00.000Z',
    cairn_version: '0.1.0',
    session: {
      id: s.id,
      title: s.title,
      approval: s.approval,
      mode: s.mode,
      created_at: s.created_at,
      branched_from: null,
    },
    turns: history.get(s.id) ?? [],
    tool_results: {},
    artifacts: [],
    events: '',
  });
  const add = (s: Session, own: TurnWithDetails[]) => {
    sessions.push(s);
    history.set(s.id, own);
    return json(201, s);
  };

  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const path = url.pathname;
    seen.push({ method, path: path + url.search, body });
    if (path === '/api/capabilities') return json(200, capabilitiesBody({ mode: 'local', shell: false }));
    if (path === '/api/projects') return json(200, { projects: [PROJECT] });
    if (path === '/api/models')
      return json(200, { models: [], env_overrides: { key: true, model: 'm', base_url: null } });
    if (path === '/api/sessions' && method === 'GET') return json(200, { sessions });
    if (path === '/api/search')
      return json(200, options.search?.(url.searchParams) ?? { hits: [], next_before: null });
    if (path === '/api/sessions/import' && method === 'POST') {
      const data = body as SessionExport;
      const id = `imported-${next++}`;
      const copied = data.turns.map((t) => ({ ...t, id: `${id}-${t.id}`, session_id: id }));
      const projectId = url.searchParams.get('project_id');
      return add(session({ id, title: data.session.title, project_id: projectId }), copied);
    }
    const turn = /^\/api\/turns\/([^/]+)$/.exec(path);
    if (turn) {
      const found = [...history.values()].flat().find((t) => t.id === turn[1]);
      return found ? json(200, found) : notFound('Turn');
    }
    const match = /^\/api\/sessions\/([^/]+)(\/[a-z]+)?$/.exec(path);
    const found = match ? sessions.find((s) => s.id === match[1]) : undefined;
    if (!match || !found) return notFound(`Route ${method} ${path}`);
    const own = history.get(found.id) ?? [];
    switch (`${method} ${match[2] ?? ''}`) {
      case 'GET ':
        return json(200, detail(found));
      case 'GET /events':
        return json(200, { events: [], has_more: false });
      case 'GET /turns': {
        const limit = Number(url.searchParams.get('limit') ?? 30);
        const before = Number(url.searchParams.get('before') ?? Number.POSITIVE_INFINITY);
        const older = own.filter((t) => t.ordinal < before);
        const page = older.slice(-limit);
        const more = older.length > page.length;
        return json(200, { turns: page, next_before: more ? page[0]!.ordinal : null, last_seq: 1 });
      }
      case 'POST /branch': {
        const turnId = (body as { turn_id: string }).turn_id;
        const upTo = own.findIndex((t) => t.id === turnId);
        const id = `branch-${next++}`;
        const copied = own.slice(0, upTo + 1).map((t) => ({ ...t, id: `${id}-${t.id}`, session_id: id }));
        const branched = session({
          id,
          title: `${found.title} (branch)`,
          project_id: found.project_id,
          branched_from: { session_id: found.id, turn_id: turnId },
        });
        return add(branched, copied);
      }
      case 'GET /export':
        return url.searchParams.get('format') === 'json'
          ? json(200, exported(found))
          : new Response(`# ${found.title}\n`, { status: 200, headers: { 'content-type': 'text/markdown' } });
      default:
        return notFound(`Route ${method} ${path}`);
    }
  };
  vi.stubGlobal('fetch', vi.fn(fetchImpl));
  const server = fakeSocketServer(new Map([[WS, BACKEND.token]]));
  vi.stubGlobal('WebSocket', server.WebSocket);
  return { seen, sessions, history, socket: server };
}
