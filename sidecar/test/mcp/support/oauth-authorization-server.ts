// The test authorization server's HTTP side: the SDK's own handlers (authorize, token, register, metadata)
// around `InMemoryOAuthProvider`, plus what the SDK leaves out and tests need: client_secret_basic at the
// token endpoint (the SDK's client authentication reads only the body), each client held to the method it
// registered, a configurable metadata document (RFC 8414 or only OpenID Connect discovery), and a record
// of every authorization, token and registration request.
import type http from 'node:http';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { InMemoryOAuthProvider, TokenEndpointAuthMethod } from './oauth-provider';

/** One request to the authorization server, as tests assert on it. Absent parameters are null. */
export interface OAuthRequestRecord {
  endpoint: 'authorize' | 'token' | 'register';
  grant_type: string | null;
  client_id: string | null;
  /** How the client authenticated at the token endpoint (null elsewhere). */
  auth_method_used: TokenEndpointAuthMethod | null;
  resource: string | null;
  scope: string | null;
  code_challenge_method: string | null;
  state: string | null;
  redirect_uri: string | null;
  /** The HTTP status answered (302 for every authorize redirect, success or error). */
  status: number | null;
  /** The OAuth error answered (in the JSON body, or the redirect's `error=`), null on success. */
  error: string | null;
}

export interface AuthorizationServerOptions {
  /** Serve /register (RFC 7591). */
  dynamicRegistration: boolean;
  advertisedAuthMethods: TokenEndpointAuthMethod[];
  scopesSupported: string[] | undefined;
  clientIdMetadataDocumentSupported: boolean;
  /** Metadata only at /.well-known/openid-configuration; RFC 8414's location answers 404. */
  oidcDiscoveryOnly: boolean;
}

// Minimal shapes of express's request and response as used here (express ships no types in this repo).
interface Req extends http.IncomingMessage {
  body?: Record<string, unknown>;
  query: Record<string, unknown>;
}
interface Res extends http.ServerResponse {
  json(body: unknown): Res;
  redirect(status: number, url: string): void;
  status(code: number): Res;
}
type Next = (err?: unknown) => void;

export interface WellKnownRecord {
  server: 'authorization' | 'mcp';
  path: string;
  status: number | null;
}

/** Records requests to /.well-known/… on one of the two servers. */
export function recordWellKnown(server: WellKnownRecord['server'], records: WellKnownRecord[]) {
  return (req: Req & { path: string }, res: Res, next: Next) => {
    if (req.path.startsWith('/.well-known/')) {
      const record: WellKnownRecord = { server, path: req.path, status: null };
      records.push(record);
      res.on('finish', () => {
        record.status = res.statusCode;
      });
    }
    next();
  };
}

const MAX_FORM_BYTES = 64 * 1024;

// Reads an urlencoded body ahead of the SDK's handlers, so the record sees it; body-parser then skips the
// finished request and the handlers use `req.body` as set here.
async function readForm(req: Req): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_FORM_BYTES) throw new Error('form body too large');
  }
  return Object.fromEntries(new URLSearchParams(text));
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function decodeBasic(header: string): { id: string; secret: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 §2.3.1 form-encodes both parts; clients that do not (the SDK's) send plain text, same result here.
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
}

// Fills `status` and `error` of a record from what the SDK's handler answers.
function watchAnswer(res: Res, record: OAuthRequestRecord): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    record.status = res.statusCode;
    const answer = body as { error?: unknown; client_id?: unknown } | null;
    record.error = str(answer?.error);
    if (record.endpoint === 'register') record.client_id = str(answer?.client_id);
    return json(body);
  };
  const redirect = res.redirect.bind(res);
  res.redirect = (status: number, url: string) => {
    record.status = status;
    record.error = new URL(url).searchParams.get('error');
    redirect(status, url);
  };
}

function emptyRecord(endpoint: OAuthRequestRecord['endpoint']): OAuthRequestRecord {
  return {
    endpoint,
    grant_type: null,
    client_id: null,
    auth_method_used: null,
    resource: null,
    scope: null,
    code_challenge_method: null,
    state: null,
    redirect_uri: null,
    status: null,
    error: null,
  };
}

function refuse(
  res: Res,
  record: OAuthRequestRecord,
  status: number,
  error: string,
  description: string,
): void {
  watchAnswer(res, record);
  res.status(status).json({ error, error_description: description });
}

/** The express app of the authorization server whose issuer is `issuer` (http://127.0.0.1:PORT/). */
export function authorizationServerApp(
  issuer: string,
  provider: InMemoryOAuthProvider,
  options: AuthorizationServerOptions,
  records: { oauth: OAuthRequestRecord[]; wellKnown: WellKnownRecord[] },
): http.RequestListener {
  const requests = records.oauth;
  const base = createOAuthMetadata({
    provider,
    issuerUrl: new URL(issuer),
    scopesSupported: options.scopesSupported,
  });
  const metadata = {
    ...base,
    token_endpoint_auth_methods_supported: options.advertisedAuthMethods,
    ...(options.clientIdMetadataDocumentSupported ? { client_id_metadata_document_supported: true } : {}),
  };
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  app.use(recordWellKnown('authorization', records.wellKnown));

  app.use('/authorize', async (req: Req, res: Res, next: Next) => {
    const record = emptyRecord('authorize');
    requests.push(record);
    const params = req.method === 'POST' ? await readForm(req) : req.query;
    if (req.method === 'POST') req.body = params;
    Object.assign(record, {
      client_id: str(params.client_id),
      resource: str(params.resource),
      scope: str(params.scope),
      code_challenge_method: str(params.code_challenge_method),
      state: str(params.state),
      redirect_uri: str(params.redirect_uri),
    });
    watchAnswer(res, record);
    next();
  });
  app.use('/authorize', authorizationHandler({ provider, rateLimit: false }));

  app.use('/token', async (req: Req, res: Res, next: Next) => {
    const record = emptyRecord('token');
    requests.push(record);
    const form = await readForm(req);
    const basic = decodeBasic(req.headers.authorization ?? '');
    const method: TokenEndpointAuthMethod = basic
      ? 'client_secret_basic'
      : form.client_secret !== undefined
        ? 'client_secret_post'
        : 'none';
    Object.assign(record, {
      grant_type: form.grant_type ?? null,
      client_id: basic?.id ?? form.client_id ?? null,
      auth_method_used: method,
      resource: form.resource ?? null,
      scope: form.scope ?? null,
      redirect_uri: form.redirect_uri ?? null,
    });
    if (basic && form.client_secret !== undefined) {
      return refuse(
        res,
        record,
        400,
        'invalid_request',
        'The client used both client_secret_basic and _post',
      );
    }
    if (basic && form.client_id !== undefined && form.client_id !== basic.id) {
      return refuse(
        res,
        record,
        401,
        'invalid_client',
        'client_id in the body differs from the Basic header',
      );
    }
    if (!options.advertisedAuthMethods.includes(method)) {
      return refuse(
        res,
        record,
        401,
        'invalid_client',
        `${method} is not an advertised token endpoint method`,
      );
    }
    const client = record.client_id ? await provider.clientsStore.getClient(record.client_id) : undefined;
    const registered =
      client?.token_endpoint_auth_method ?? (client?.client_secret ? 'client_secret_basic' : 'none');
    if (client && registered !== method) {
      return refuse(
        res,
        record,
        401,
        'invalid_client',
        `The client is registered for ${registered}, not ${method}`,
      );
    }
    // The SDK's client authentication reads client_id and client_secret from the body only.
    req.body = basic ? { ...form, client_id: basic.id, client_secret: basic.secret } : form;
    watchAnswer(res, record);
    next();
  });
  app.use('/token', tokenHandler({ provider, rateLimit: false }));

  if (options.dynamicRegistration) {
    app.use('/register', (req: Req, res: Res, next: Next) => {
      const record = emptyRecord('register');
      requests.push(record);
      const body = req.body ?? {};
      const uris = body.redirect_uris;
      Object.assign(record, {
        scope: str(body.scope),
        redirect_uri: Array.isArray(uris) ? str(uris[0]) : null,
      });
      watchAnswer(res, record);
      next();
    });
    app.use(
      '/register',
      clientRegistrationHandler({ clientsStore: provider.clientsStore, rateLimit: false }),
    );
  }

  if (options.oidcDiscoveryOnly) {
    // OpenID Connect discovery requires these fields; the values are unused (no ID tokens are issued).
    app.use(
      '/.well-known/openid-configuration',
      metadataHandler({
        ...metadata,
        jwks_uri: new URL('/jwks', issuer).href,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
    app.get('/jwks', (_req: Req, res: Res) => void res.json({ keys: [] }));
  } else {
    app.use('/.well-known/oauth-authorization-server', metadataHandler(metadata));
  }
  return app as http.RequestListener;
}
