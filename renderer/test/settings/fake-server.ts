import type { Capabilities, ModelConfig } from '../../../sidecar/src/protocol';
import { capabilitiesBody, healthBody } from '../../../sidecar/test/support/api-bodies';

/** One request the fake server saw. */
export interface Recorded {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
  redirect: RequestRedirect | undefined;
}

export interface FakeServerOptions {
  models?: ModelConfig[];
  capabilities?: Partial<Capabilities>;
  /** Answers PUT /api/models/:id/key with this error instead of 204. */
  keyError?: { status: number; code: string; message: string };
  /** Answers POST /api/models with this error instead of creating. */
  createError?: { status: number; code: string; message: string };
  /** What GET /api/models reports the server's environment overrides; nothing by default. */
  envOverrides?: Partial<EnvOverrides>;
}

/** The `env_overrides` of GET /api/models (never a key value, only whether one is set). */
export interface EnvOverrides {
  key: boolean;
  model: string | null;
  base_url: string | null;
}

export function model(overrides: Partial<ModelConfig> & { id: string }): ModelConfig {
  return {
    name: `Model ${overrides.id}`,
    model: 'claude-sonnet-4-5',
    base_url: null,
    context_window: 200_000,
    max_tokens: 8192,
    thinking_budget: null,
    compact_threshold: 0.8,
    price_input: null,
    price_output: null,
    price_cache_read: null,
    price_cache_write: null,
    active: false,
    has_key: false,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/** A tiny in-memory Cairn API behind a fake `fetch`, recording every request. */
export function fakeServer(options: FakeServerOptions = {}) {
  const models: ModelConfig[] = (options.models ?? []).map((m) => ({ ...m }));
  const requests: Recorded[] = [];
  let nextId = 100;

  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({
      method,
      path: url.pathname + url.search,
      body,
      authorization: headers.authorization,
      redirect: init?.redirect,
    });

    const path = url.pathname;
    if (method === 'GET' && path === '/api/health') return json(200, healthBody('1.2.3'));
    if (headers.authorization !== 'Bearer t') return error(401, 'unauthorized', 'Missing or wrong token.');
    if (method === 'GET' && path === '/api/capabilities') {
      return json(200, capabilitiesBody(options.capabilities));
    }
    if (method === 'GET' && path === '/api/about') {
      return json(200, {
        name: 'cairn',
        version: '1.2.3',
        data_dir: '/home/me/.cairn',
        node: '20.18.0',
        platform: 'linux',
      });
    }
    // No rules: the settings page's Permissions section reads them (its own tests use a fuller fake).
    if (method === 'GET' && path === '/api/permission-rules') return json(200, { rules: [] });
    if (method === 'GET' && path === '/api/models') {
      const env_overrides: EnvOverrides = {
        key: false,
        model: null,
        base_url: null,
        ...options.envOverrides,
      };
      return json(200, { models, env_overrides });
    }
    if (method === 'POST' && path === '/api/models') {
      if (options.createError)
        return error(options.createError.status, options.createError.code, options.createError.message);
      const input = body as Partial<ModelConfig>;
      const created = model({
        ...input,
        id: `m${nextId++}`,
        base_url: input.base_url ?? null,
        thinking_budget: input.thinking_budget ?? null,
        active: models.length === 0,
      });
      models.push(created);
      return json(201, created);
    }
    const match = /^\/api\/models\/([^/]+)(\/activate|\/key)?$/.exec(path);
    const found = match ? models.find((m) => m.id === decodeURIComponent(match[1] ?? '')) : undefined;
    if (match && !found) return error(404, 'not_found', 'Model config not found.');
    if (match && found) {
      const action = match[2];
      if (method === 'PATCH' && !action) {
        Object.assign(found, body);
        return json(200, found);
      }
      if (method === 'DELETE' && !action) {
        models.splice(models.indexOf(found), 1);
        return new Response(null, { status: 204 });
      }
      if (method === 'POST' && action === '/activate') {
        for (const m of models) m.active = m === found;
        return json(200, found);
      }
      if (method === 'PUT' && action === '/key') {
        if (options.keyError)
          return error(options.keyError.status, options.keyError.code, options.keyError.message);
        found.has_key = true;
        return new Response(null, { status: 204 });
      }
    }
    return error(404, 'not_found', `No route ${method} ${path}`);
  };

  return { fetch: fetchImpl as typeof fetch, requests, models };
}
