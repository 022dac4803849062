import { describe, expect, it } from 'vitest';
import { ApiError, CairnClient } from '../../src/client';
import { capabilitiesBody, healthBody } from '../support/api-bodies';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  redirect: RequestInit['redirect'];
  credentials: RequestInit['credentials'];
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const MODEL = {
  id: 'm1',
  name: 'Main',
  model: 'claude-sonnet-4-5',
  base_url: null,
  context_window: 200_000,
  max_tokens: 8192,
  thinking_budget: null,
  compact_threshold: 0.8,
  price_input: 3,
  price_output: 15,
  price_cache_read: null,
  price_cache_write: null,
  active: true,
  has_key: false,
  created_at: '2025-01-01T00:00:00.000Z',
};
const CAPABILITIES = capabilitiesBody({ mode: 'local', version: '1.0.0' });

/** A client whose fetch answers with `answer` and records every call. */
function clientWith(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetchImpl = async (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
    seen.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : undefined,
      redirect: init.redirect,
      credentials: init.credentials,
    });
    return answer(String(input), init);
  };
  return {
    client: new CairnClient({ url: 'http://127.0.0.1:1/', token: 't' }, fetchImpl as typeof fetch),
    seen,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('CairnClient', () => {
  it('returns validated data', async () => {
    const { client, seen } = clientWith(() => json(200, { models: [MODEL] }));
    expect(await client.listModels()).toEqual([MODEL]);
    expect(seen[0]?.url).toBe('http://127.0.0.1:1/api/models');
  });

  it('rejects a body that does not match the protocol schema as bad_response', async () => {
    const { client } = clientWith(() => json(200, { models: [{ ...MODEL, has_key: 'yes' }] }));
    const error = await rejection(client.listModels());
    expect(error.code).toBe('bad_response');
    expect(error.status).toBe(200);
    // The field's path, whatever language zod's own message is in (none in the renderer).
    expect(error.message).toMatch(/^Unexpected answer from \/api\/models: models\.0\.has_key: Invalid input/);

    const other = clientWith(() => json(200, { ...CAPABILITIES, mode: 'cloud' }));
    expect((await rejection(other.client.capabilities())).code).toBe('bad_response');
  });

  it('maps {error:{code,message}} to an ApiError with that code, status and message', async () => {
    const { client } = clientWith(() =>
      json(503, { error: { code: 'keychain_unavailable', message: 'Set CAIRN_ANTHROPIC_API_KEY instead.' } }),
    );
    const error = await rejection(client.setModelKey('m1', 'sk-secret'));
    expect(error).toMatchObject({ code: 'keychain_unavailable', status: 503 });
    expect(error.message).toBe('Set CAIRN_ANTHROPIC_API_KEY instead.');
  });

  it('uses http_error for an error without the error envelope and not_cairn for a non-JSON body', async () => {
    const a = clientWith(() => json(500, { oops: true }));
    expect(await rejection(a.client.about())).toMatchObject({ code: 'http_error', status: 500 });
    const b = clientWith(() => new Response('<html></html>', { status: 200 }));
    expect((await rejection(b.client.about())).code).toBe('not_cairn');
  });

  it('sends the token on every call except health, never follows redirects, never sends cookies', async () => {
    const { client, seen } = clientWith((url, init) => {
      const route = `${init.method} ${new URL(url).pathname}`;
      if (route === 'GET /api/health') return json(200, healthBody('1.0.0'));
      if (route === 'GET /api/capabilities') return json(200, CAPABILITIES);
      if (route === 'GET /api/models') return json(200, { models: [MODEL] });
      if (route === 'PUT /api/models/m1/key' || route === 'DELETE /api/models/m1') {
        return new Response(null, { status: 204 });
      }
      return json(200, MODEL);
    });
    await client.health();
    await client.capabilities();
    await client.listModels();
    await client.createModel({ name: 'Main', model: 'claude-sonnet-4-5' });
    await client.updateModel('m1', { name: 'Main' });
    await client.activateModel('m1');
    await client.setModelKey('m1', 'sk-secret');
    await client.deleteModel('m1');

    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'GET /api/health',
      'GET /api/capabilities',
      'GET /api/models',
      'POST /api/models',
      'PATCH /api/models/m1',
      'POST /api/models/m1/activate',
      'PUT /api/models/m1/key',
      'DELETE /api/models/m1',
    ]);
    const [health, ...rest] = seen;
    expect(health?.headers.authorization).toBeUndefined();
    for (const call of rest) expect(call.headers.authorization).toBe('Bearer t');
    for (const call of seen) {
      expect(call.redirect).toBe('error');
      expect(call.credentials).toBe('omit');
      expect(call.url).not.toContain('t=');
    }
    const key = seen.find((s) => s.method === 'PUT');
    expect(key?.body && JSON.parse(key.body)).toEqual({ key: 'sk-secret' });
    expect(key?.headers['content-type']).toBe('application/json');
    expect(key?.url).not.toContain('sk-secret');
  });

  it("reads the tool runtime, a call's output pieces and cancels a call, validated by their schemas", async () => {
    const call = {
      id: 'tc1',
      session_id: 's1',
      turn_id: 't1',
      tool_use_id: 'tu1',
      name: 'Bash',
      input: { command: 'sleep 9' },
      status: 'running',
      is_error: false,
      preview: null,
      result_file: null,
      started_at: '2025-01-01T00:00:00.000Z',
      finished_at: null,
      duration_ms: null,
      parent_tool_call_id: null,
      background: true,
      exit_code: null,
      meta: null,
    };
    const output = {
      call_id: 'tc1',
      status: 'running',
      pieces: [],
      next_after: 4,
      missing: 0,
      running: true,
    };
    const { client, seen } = clientWith((url) => {
      if (url.endsWith('/tool-runtime')) return json(200, { calls: [call], loaded_tools: [] });
      if (url.includes('/output')) return json(200, output);
      return json(200, { ...call, status: 'cancelled' });
    });
    expect(await client.toolRuntime('s1')).toEqual({ calls: [call], loaded_tools: [] });
    expect(await client.toolCallOutput('tc1')).toEqual(output);
    await client.toolCallOutput('tc1', 4);
    expect((await client.cancelToolCall('tc1')).status).toBe('cancelled');
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}${new URL(s.url).search}`)).toEqual([
      'GET /api/sessions/s1/tool-runtime',
      'GET /api/tool-calls/tc1/output',
      'GET /api/tool-calls/tc1/output?after=4',
      'POST /api/tool-calls/tc1/cancel',
    ]);
    const bad = clientWith(() => json(200, { calls: [{ ...call, status: 'sleeping' }], loaded_tools: [] }));
    expect((await rejection(bad.client.toolRuntime('s1'))).code).toBe('bad_response');
  });

  it('encodes ids in paths', async () => {
    const { client, seen } = clientWith(() => new Response(null, { status: 204 }));
    await client.deleteModel('a/b?c');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/models/a%2Fb%3Fc');
  });

  it('reports a network failure as code network with status 0', async () => {
    const { client } = clientWith(() => {
      throw new TypeError('fetch failed');
    });
    const error = await rejection(client.listModels());
    expect(error).toMatchObject({ code: 'network', status: 0 });
    expect(error.message).toContain('http://127.0.0.1:1');
  });

  it('reads a code it does not know (a newer server) as internal, keeping the message and details', async () => {
    const { client } = clientWith(() =>
      json(409, {
        error: { code: 'some_code_from_the_future', message: 'Files changed', details: { paths: ['a'] } },
      }),
    );
    const error = await rejection(client.listModels());
    expect(error).toMatchObject({ code: 'internal', status: 409, message: 'Files changed' });
    expect(error.details).toEqual({ paths: ['a'] });
  });

  it('knows only the codes of the closed set', () => {
    // @ts-expect-error: a code outside protocol's ErrorCode does not compile.
    const made = new ApiError(500, 'no_such_code', 'x');
    expect(made.code).toBe('no_such_code');
  });
});
