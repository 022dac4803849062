import { describe, expect, it } from 'vitest';
import {
  CreateMcpServerRequest,
  MCP_BEARER_SECRET,
  MCP_OAUTH_CLIENT_SECRET,
  SetMcpSecretsRequest,
} from '../../../sidecar/src/protocol';
import {
  allowListOf,
  emptyForm,
  formFromServer,
  type McpFormState,
  newRow,
  requestFromForm,
  splitScopes,
  withoutSecrets,
} from '../../src/components/mcp/mcp-form';
import { mcpServer } from '../support/mcp-servers';

const server = mcpServer;

function ok(form: McpFormState) {
  const result = requestFromForm(form);
  if (!result.ok) throw new Error(`form refused: ${JSON.stringify(result.errors)}`);
  // What the form sends is what the server's own schemas accept.
  expect(CreateMcpServerRequest.safeParse(result.value.request).success).toBe(true);
  expect(SetMcpSecretsRequest.safeParse(result.value.secrets).success).toBe(true);
  return result.value;
}

const row = (name: string, kind: 'text' | 'env' | 'secret', value: string, saved = false) => ({
  ...newRow(kind),
  name,
  value,
  hasValue: saved,
});

describe('MCP server form → request', () => {
  it('maps each value kind: text as a string, env as a reference, secret as a marker with its value apart', () => {
    const { request, secrets } = ok({
      ...emptyForm(),
      name: ' everything ',
      command: 'node "my server.js" stdio',
      env: [row('PLAIN', 'text', 'hello'), row('FROM_ENV', 'env', 'HOME'), row('TOKEN', 'secret', 's3cret')],
    });
    expect(request.name).toBe('everything');
    expect(request.command).toBe('node "my server.js" stdio');
    expect(request.env).toEqual({ PLAIN: 'hello', FROM_ENV: { env: 'HOME' }, TOKEN: { secret: true } });
    expect(JSON.stringify(request)).not.toContain('s3cret');
    expect(secrets).toEqual({ TOKEN: 's3cret' });
  });

  it('keeps a saved secret when its field is left empty, and removes it only when asked', () => {
    const saved = server({ env: { TOKEN: { secret: true, has_value: true } } });
    const form = formFromServer(saved);
    expect(form.env[0]).toMatchObject({ name: 'TOKEN', kind: 'secret', value: '', hasValue: true });
    expect(ok(form).secrets).toEqual({});
    const removing = { ...form, env: [{ ...form.env[0]!, remove: true }] };
    expect(ok(removing).secrets).toEqual({ TOKEN: null });
    // Nothing saved: "remove" has nothing to remove.
    const unsaved = { ...form, env: [{ ...form.env[0]!, hasValue: false, remove: true }] };
    expect(ok(unsaved).secrets).toEqual({});
  });

  it('tells "every tool" (null) from "no tools" ([]) and an explicit list', () => {
    expect(allowListOf({ allowTools: '', allowNone: false })).toBeNull();
    expect(allowListOf({ allowTools: ' , \n', allowNone: false })).toBeNull();
    expect(allowListOf({ allowTools: 'echo', allowNone: true })).toEqual([]);
    expect(allowListOf({ allowTools: 'echo, add\nadd', allowNone: false })).toEqual(['echo', 'add']);
    expect(ok({ ...emptyForm(), name: 'a', command: 'x', allowNone: true }).request.allow_tools).toEqual([]);
    expect(ok({ ...emptyForm(), name: 'a', command: 'x' }).request.allow_tools).toBeNull();
    expect(formFromServer(server({ allow_tools: [] }))).toMatchObject({ allowNone: true, allowTools: '' });
    expect(formFromServer(server({ allow_tools: null }))).toMatchObject({ allowNone: false, allowTools: '' });
    expect(formFromServer(server({ allow_tools: ['echo', 'add'] }))).toMatchObject({
      allowNone: false,
      allowTools: 'echo, add',
    });
  });

  it('sends an HTTP server with headers and a bearer secret, and no stdio fields', () => {
    const { request, secrets } = ok({
      ...emptyForm(),
      name: 'remote',
      transport: 'streamable_http',
      command: 'left over',
      env: [row('OLD', 'text', 'x')],
      url: 'https://mcp.example.com/mcp',
      headers: [row('X-Team', 'text', 'a'), row('X-Key', 'env', 'TEAM_KEY')],
      bearer: { kind: 'secret', value: 'tok-123', hasValue: false, remove: false },
    });
    expect(request).toMatchObject({
      transport: 'streamable_http',
      command: null,
      env: {},
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': 'a', 'X-Key': { env: 'TEAM_KEY' } },
      bearer_token: { secret: true },
    });
    expect(secrets).toEqual({ [MCP_BEARER_SECRET]: 'tok-123' });
    expect(JSON.stringify(request)).not.toContain('tok-123');
  });

  it('round-trips a saved HTTP server without sending any secret', () => {
    const saved = server({
      transport: 'streamable_http',
      command: null,
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization2: { secret: true, has_value: true } },
      bearer_token: { env: 'MCP_TOKEN' },
      deny_tools: ['rm'],
      startup_timeout_sec: 5,
      block_on_failure: true,
    });
    const { request, secrets } = ok(formFromServer(saved));
    expect(secrets).toEqual({});
    expect(request).toMatchObject({
      headers: { Authorization2: { secret: true } },
      bearer_token: { env: 'MCP_TOKEN' },
      deny_tools: ['rm'],
      startup_timeout_sec: 5,
      block_on_failure: true,
    });
  });

  it('refuses what the server would refuse, naming the field', () => {
    const result = requestFromForm({
      ...emptyForm(),
      name: ' ',
      command: '',
      env: [row('1BAD', 'text', 'x')],
      startupTimeout: '0',
      toolTimeout: 'abc',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      'command',
      'env',
      'name',
      'startupTimeout',
      'toolTimeout',
    ]);
    const dup = requestFromForm({
      ...emptyForm(),
      name: 'a',
      transport: 'streamable_http',
      url: 'https://x',
      headers: [row('X-A', 'text', '1'), row('x-a', 'text', '2')],
    });
    expect(dup.ok ? null : dup.errors.headers?.key).toBe('mcp.form.error.rowDuplicate');
    const badRef = requestFromForm({
      ...emptyForm(),
      name: 'a',
      command: 'x',
      env: [row('A', 'env', 'not a var')],
    });
    expect(badRef.ok ? null : badRef.errors.env?.key).toBe('mcp.form.error.envRef');
  });

  it('drops blank rows and masks typed secrets in messages', () => {
    expect(ok({ ...emptyForm(), name: 'a', command: 'x', env: [newRow()] }).request.env).toEqual({});
    expect(withoutSecrets('bad value s3cret here', { A: 's3cret', B: null })).toBe('bad value ••• here');
  });
});

describe('MCP server form → OAuth settings', () => {
  const http = (patch: Partial<McpFormState> = {}): McpFormState => ({
    ...emptyForm(),
    name: 'remote',
    transport: 'streamable_http',
    url: 'https://mcp.example.com/mcp',
    ...patch,
  });
  const oauth = (patch: Partial<McpFormState['oauth']>) => ({ ...emptyForm().oauth, ...patch });

  it('sends null when nothing is set (Cairn registers itself), and never for a stdio server', () => {
    expect(ok(http()).request.oauth).toBeNull();
    const stdio = ok({ ...emptyForm(), name: 'a', command: 'x', oauth: oauth({ clientId: 'left-over' }) });
    expect(stdio.request.oauth).toBeNull();
  });

  it('sends a pre-registered client with its secret apart, scopes split on spaces and commas', () => {
    const { request, secrets } = ok(
      http({
        oauth: oauth({
          clientId: ' cairn-app ',
          clientSecret: { kind: 'secret', value: 'cs-123', hasValue: false, remove: false },
          scopes: 'mcp:read, mcp:write\nmcp:read  openid',
          metadataUrl: ' https://cairn.example.com/oauth/client.json ',
        }),
      }),
    );
    expect(request.oauth).toEqual({
      client_id: 'cairn-app',
      client_secret: { secret: true },
      scopes: ['mcp:read', 'mcp:write', 'openid'],
      client_metadata_url: 'https://cairn.example.com/oauth/client.json',
    });
    expect(secrets).toEqual({ [MCP_OAUTH_CLIENT_SECRET]: 'cs-123' });
    expect(JSON.stringify(request)).not.toContain('cs-123');
    expect(splitScopes(' a,,b  a ')).toEqual(['a', 'b']);
  });

  it('takes a client secret as a literal or an env reference too', () => {
    const literal = ok(
      http({
        oauth: oauth({
          clientId: 'c',
          clientSecret: { kind: 'text', value: 'plain', hasValue: false, remove: false },
        }),
      }),
    );
    expect(literal.request.oauth).toEqual({ client_id: 'c', client_secret: 'plain' });
    expect(literal.secrets).toEqual({});
    const env = ok(
      http({
        oauth: oauth({
          clientId: 'c',
          clientSecret: { kind: 'env', value: ' CLIENT_SECRET ', hasValue: false, remove: false },
        }),
      }),
    );
    expect(env.request.oauth).toEqual({ client_id: 'c', client_secret: { env: 'CLIENT_SECRET' } });
  });

  it('round-trips saved OAuth settings: a saved secret is kept unless replaced or removed', () => {
    const saved = server({
      transport: 'streamable_http',
      command: null,
      url: 'https://mcp.example.com/mcp',
      oauth: {
        client_id: 'cairn-app',
        client_secret: { secret: true, has_value: true },
        scopes: ['mcp:read', 'mcp:write'],
        client_metadata_url: 'https://cairn.example.com/client.json',
      },
    });
    const form = formFromServer(saved);
    expect(form.oauth).toEqual({
      clientId: 'cairn-app',
      clientSecret: { kind: 'secret', value: '', hasValue: true, remove: false },
      scopes: 'mcp:read mcp:write',
      metadataUrl: 'https://cairn.example.com/client.json',
    });
    const kept = ok(form);
    expect(kept.request.oauth).toEqual({
      client_id: 'cairn-app',
      client_secret: { secret: true },
      scopes: ['mcp:read', 'mcp:write'],
      client_metadata_url: 'https://cairn.example.com/client.json',
    });
    expect(kept.secrets).toEqual({});
    const removing = {
      ...form,
      oauth: { ...form.oauth, clientSecret: { ...form.oauth.clientSecret, remove: true } },
    };
    expect(ok(removing).secrets).toEqual({ [MCP_OAUTH_CLIENT_SECRET]: null });
    expect(formFromServer(server({ oauth: null })).oauth).toEqual(emptyForm().oauth);
  });

  it('refuses a secret without a client, a bad env name, a bad scope and a metadata URL that is not https', () => {
    const errorOf = (form: McpFormState) => {
      const result = requestFromForm(form);
      return result.ok ? null : result.errors;
    };
    expect(
      errorOf(
        http({
          oauth: oauth({ clientSecret: { kind: 'secret', value: 'x', hasValue: false, remove: false } }),
        }),
      )?.oauthClientSecret?.key,
    ).toBe('mcp.form.error.oauthSecretNoClient');
    expect(
      errorOf(
        http({
          oauth: oauth({
            clientId: 'c',
            clientSecret: { kind: 'env', value: 'not a var', hasValue: false, remove: false },
          }),
        }),
      )?.oauthClientSecret?.key,
    ).toBe('mcp.form.error.oauthSecretEnv');
    expect(errorOf(http({ oauth: oauth({ scopes: 'read "write"' }) }))?.oauthScopes).toEqual({
      key: 'mcp.form.error.oauthScope',
      params: { scope: '"write"' },
    });
    for (const url of ['http://cairn.example.com/client.json', 'https://cairn.example.com/', 'not a url'])
      expect(errorOf(http({ oauth: oauth({ metadataUrl: url }) }))?.oauthMetadataUrl?.key).toBe(
        'mcp.form.error.oauthMetadataUrl',
      );
  });
});
