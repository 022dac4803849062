import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { OAUTH_CALLBACK_PATH } from '../application/mcp/mcp-oauth-service';
import { CairnError } from '../errors';
import { sendError } from './error-reply';
import {
  isApiPath,
  isHostAllowed,
  isLoopbackHostHeader,
  isOriginAllowed,
  isTokenValid,
  type RequestPolicyOptions,
  requestHost,
} from './request-policy';
import { registerContextRoutes } from './routes/context-routes';
import { registerExperienceRoutes } from './routes/experience-routes';
import { registerFileHistoryRoutes } from './routes/file-history-routes';
import { registerKernelProviderRoutes } from './routes/kernel-provider-routes';
import { registerKernelRoutes } from './routes/kernel-routes';
import { registerMcpRoutes } from './routes/mcp-routes';
import { registerMetaRoutes } from './routes/meta-routes';
import { registerModelRoutes } from './routes/model-routes';
import { registerPermissionRoutes } from './routes/permission-routes';
import { registerProjectRoutes } from './routes/project-routes';
import { registerQuestionRoutes } from './routes/question-routes';
import { registerSearchRoutes } from './routes/search-routes';
import { registerSessionRoutes } from './routes/session-routes';
import { registerSessionTransferRoutes } from './routes/session-transfer-routes';
import { registerToolRuntimeRoutes } from './routes/tool-runtime-routes';
import { registerTurnRoutes } from './routes/turn-routes';
import type { ServerContext } from './server-context';
import { requireSessionFirst } from './session-scope';
import type { TlsCredentials } from './tls-options';
import { WsHub } from './ws-hub';

export interface CairnServerOptions extends ServerContext, RequestPolicyOptions {
  token: string;
  /** How long a WebSocket may stay unauthenticated (DESIGN.md: 5 s). */
  wsAuthTimeoutMs: number;
  /** The built renderer, served as public static files; null when not built. */
  staticDir: string | null;
  /** Serve HTTPS with these; null for plain HTTP. */
  tls: TlsCredentials | null;
  /** TLS ends at a proxy in front of this server, so the page's own origin is https. */
  behindTlsProxy: boolean;
}

export interface CairnServer {
  app: FastifyInstance;
  hub: WsHub;
  /** Every route the router knows, for the security tests. */
  routes: { method: string; url: string }[];
}

/** The UI's routes (the page, scripts, styles): public, except for a path that names the API. */
const PAGE_ROUTES = new Set(['/', '/*']);
/** API routes anyone may call: health, and the OAuth callback a browser brings back (it checks its state). */
const PUBLIC_API_ROUTES = new Set(['/api/health', OAUTH_CALLBACK_PATH]);

export async function buildServer(options: CairnServerOptions): Promise<CairnServer> {
  const app = Fastify({
    https: options.tls ? { cert: options.tls.cert, key: options.tls.key } : null,
    logger: false,
    bodyLimit: 10 * 1024 * 1024,
    exposeHeadRoutes: false,
    // Requests the router rejects before any hook (a malformed URL) still get the Host check and our error shape.
    frameworkErrors: (error, req, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      const host = requestHost(req.raw.rawHeaders, req.url);
      if (!isHostAllowed(host, options)) {
        return sendError(reply, new CairnError('forbidden', hostRefusal(req.headers.host, host)), options);
      }
      return sendError(reply, new CairnError('bad_request', error.message, { cause: error }), options);
    },
  });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  // The WebSocket plugin first: its onRequest hook marks upgrade requests (req.ws) and its onResponse hook
  // destroys the socket of an upgrade the guard refused; registered after the guard, a refused handshake
  // skipped that hook and its socket stayed open forever (and held up server.close()).
  await app.register(fastifyWebsocket);
  app.addHook('onRequest', async (req, reply) => guard(req, reply, options));
  app.setErrorHandler((error, _req, reply) => sendError(reply, error, options));
  app.setNotFoundHandler((req, reply) => {
    if (!isApiPath(req.url) && options.staticDir) return reply.sendFile('index.html');
    return sendNotFound(req, reply, options);
  });

  const hub = new WsHub({
    events: options.services.events,
    token: options.token,
    authTimeoutMs: options.wsAuthTimeoutMs,
    logger: options.logger,
  });
  app.get('/api/ws', { websocket: true }, (socket) => hub.accept(socket));
  app.addHook('onClose', async () => hub.close());

  app.addHook('onSend', async (req, reply, payload) => {
    // The served UI may run only its own scripts and talk only to this server.
    if (!isApiPath(req.url)) reply.header('content-security-policy', PAGE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // Browsers that reached this name over HTTPS keep to it; only sent where TLS really ends here.
    if (options.tls) reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });

  requireSessionFirst(app, options);
  registerMetaRoutes(app, options);
  registerProjectRoutes(app, options);
  registerSessionRoutes(app, options);
  registerSessionTransferRoutes(app, options);
  registerTurnRoutes(app, options);
  registerFileHistoryRoutes(app, options);
  registerContextRoutes(app, options);
  registerExperienceRoutes(app, options);
  registerPermissionRoutes(app, options);
  registerQuestionRoutes(app, options);
  registerToolRuntimeRoutes(app, options);
  registerModelRoutes(app, options);
  registerKernelRoutes(app, options);
  registerKernelProviderRoutes(app, options);
  registerMcpRoutes(app, options);
  registerSearchRoutes(app, options);
  app.addHook('onResponse', async (req, reply) => {
    // Paths only: a query string could carry something a person pasted by mistake.
    const fields = {
      method: req.method,
      path: req.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= 500) options.logger.warn('request failed', fields);
    else options.logger.debug('request', fields);
  });

  if (options.staticDir && fs.existsSync(options.staticDir)) {
    await app.register(fastifyStatic, { root: options.staticDir, prefix: '/', wildcard: true });
  } else {
    app.get('/', async (_req, reply) => reply.type('text/html').send(PLACEHOLDER_PAGE));
  }
  return { app, hub, routes };
}

/** Host, then Origin, then CORS preflight, then the token: in that order. */
async function guard(req: FastifyRequest, reply: FastifyReply, options: CairnServerOptions): Promise<void> {
  const host = requestHost(req.raw.rawHeaders, req.url);
  if (!isHostAllowed(host, options)) {
    return void sendError(reply, new CairnError('forbidden', hostRefusal(req.headers.host, host)), options);
  }
  // A proxy that also forwards plain http would let the page and its token travel in the clear. (A client
  // on the server itself going around the proxy sends no such header.)
  if (options.behindTlsProxy && forwardedProto(req) === 'http') {
    return void sendError(
      reply,
      new CairnError('forbidden', 'This server takes requests over HTTPS only: open it with https://.'),
      options,
    );
  }
  const origin = req.headers.origin;
  if (!isOriginAllowed(origin, host, pageSchemes(host, options), options)) {
    return void sendError(reply, new CairnError('forbidden', `Origin "${origin}" is not allowed.`), options);
  }
  if (origin) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  }
  if (req.method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
    reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', 'authorization, content-type');
    reply.header('access-control-max-age', '600');
    return void reply.code(204).send();
  }
  // Every matched route needs the token unless it is public, whatever the spelling of the path (`/%61pi/…`
  // or an absolute-form target reach the same handlers as `/api/…`). The page's routes, the static
  // wildcard among them, and unmatched requests are public unless the path names the API in any spelling:
  // an unknown API path asks for the token first, so that it does not reveal which routes exist.
  const route = req.routeOptions.url;
  const pageOrNone = route === undefined || PAGE_ROUTES.has(route);
  if (pageOrNone && !isApiPath(req.url)) return;
  if (route !== undefined && PUBLIC_API_ROUTES.has(route)) return;
  // A WebSocket authenticates with its first message (a browser cannot set headers on it).
  if (route === '/api/ws' && req.ws) return;
  if (!isTokenValid(req.headers.authorization, options.token)) {
    return void sendError(
      reply,
      new CairnError('unauthorized', 'A valid token is required: send Authorization: Bearer <token>.'),
      options,
    );
  }
  // An API path no API route takes: answered here, so the static wildcard never serves a file for it.
  if (pageOrNone) return void sendNotFound(req, reply, options);
}

function sendNotFound(req: FastifyRequest, reply: FastifyReply, options: CairnServerOptions): FastifyReply {
  return sendError(
    reply,
    new CairnError('not_found', `No route ${req.method} ${req.url.split('?')[0]}.`),
    options,
  );
}

/**
 * The schemes the served page can have been loaded over: https where TLS ends here or at a proxy; plain
 * http without TLS here, and behind a proxy also for a loopback Host (someone on the server going
 * around the proxy).
 */
function pageSchemes(host: string | undefined, options: CairnServerOptions): ('http' | 'https')[] {
  if (options.tls) return ['https'];
  if (options.behindTlsProxy) return isLoopbackHostHeader(host) ? ['https', 'http'] : ['https'];
  return ['http'];
}

function forwardedProto(req: FastifyRequest): string | undefined {
  const value = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0];
  return first?.trim().toLowerCase();
}

function hostRefusal(header: string | undefined, host: string | undefined): string {
  if (header !== undefined && host === undefined) {
    return 'The request names more than one host (Host headers, or an absolute URL naming another): send one Host header.';
  }
  return `Host "${header ?? ''}" is not allowed. If this is the name clients use, start cairn serve with --allowed-hosts NAME.`;
}

export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

const PLACEHOLDER_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cairn</title></head>
<body><h1>Cairn</h1><p>The API is running. The web UI has not been built yet.</p></body></html>`;
