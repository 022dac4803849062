import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import { parseSecureUrl } from '../../config/secure-url';
import type { OAuthCredentials } from './oauth-credentials';

/** The redirect URI the SDK is given where no callback can be taken: never registered, never sent. */
const NO_REDIRECT = 'http://127.0.0.1/cairn-no-callback';

/** What an authorization server says is cut to this, before it reaches a message, a page or the log. */
const MESSAGE_CHARS = 500;
export const cut = (text: string): string =>
  text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}…` : text;

/** How Cairn presents itself to the authorization server, from the server's `oauth` settings. */
export interface OAuthClientConfig {
  clientId: string | null;
  /** Resolved (literal, env or keychain). */
  clientSecret: string | null;
  scopes: string[] | null;
  clientMetadataUrl: string | null;
}

/** A login waiting for the user: its state, the scopes it asks for, and what the SDK gave for it. */
export interface PendingLogin {
  state: string;
  /** The scopes this login asks for (a step-up that needs no more reuses it). */
  scope: string | undefined;
  expiresAt: number;
  verifier: string | null;
  url: string | null;
}

/** The provider's view of its server's login (ServerOAuth): one run's settings and the login under way. */
export interface LoginHost {
  /** This run asks the user even where a refresh token could serve (a step-up, Log in). */
  forceLogin(): boolean;
  /** The login whose code is being exchanged. */
  completing(): PendingLogin | null;
  /** Starts a login (refused where no callback can be taken): its state. */
  newLogin(): string;
  pending(): PendingLogin | null;
  dropPending(): void;
  tokensSaved(): void;
  discovery(): OAuthDiscoveryState | undefined;
  setDiscovery(state: OAuthDiscoveryState | undefined): void;
}

export interface ProviderOptions {
  serverId: string;
  /** The MCP endpoint (the protected resource). */
  serverUrl: string;
  client: OAuthClientConfig;
  /** `<base URL>/api/mcp/oauth/callback`; null where no login can be finished. */
  redirectUri: string | null;
  credentials: OAuthCredentials;
}

/**
 * Where the SDK's `auth()` reads and keeps one server's login: Cairn's client (configured, registered or
 * named by its metadata URL), the tokens in the keychain, and the login waiting for the user.
 */
export function oauthProvider(opts: ProviderOptions, host: LoginHost): OAuthClientProvider {
  const { credentials, serverId, serverUrl, client, redirectUri } = opts;
  return {
    // Without a callback a refresh still runs (the SDK wants a redirect URI to exist); a login is refused
    // in state() (newLogin), and nothing registers (a client exists once tokens do).
    redirectUrl: redirectUri ?? NO_REDIRECT,
    ...(client.clientMetadataUrl ? { clientMetadataUrl: client.clientMetadataUrl } : {}),
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: 'Cairn',
        redirect_uris: [redirectUri ?? NO_REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    state: () => host.newLogin(),
    clientInformation: async (): Promise<OAuthClientInformationMixed | undefined> => {
      const saved = await credentials.client(serverId, serverUrl);
      if (client.clientId) {
        // Bound to the authorization server of its first login: its secret goes to no other one the MCP
        // server's metadata might name later (the SDK refuses to present it elsewhere).
        const issuer = saved?.client_id === client.clientId ? saved.issuer : undefined;
        return {
          client_id: client.clientId,
          ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
          ...(issuer ? { issuer } : {}),
        };
      }
      if (!saved) return undefined;
      // Registered for another redirect URI (the port changed): register again.
      const uris = 'redirect_uris' in saved ? saved.redirect_uris : undefined;
      if (uris && redirectUri && !uris.includes(redirectUri)) return undefined;
      const { server_url: _url, ...info } = saved;
      return info;
    },
    // A pre-registered client is never replaced by a registration (the SDK then refuses another server).
    ...(client.clientId
      ? {}
      : {
          saveClientInformation: async (info: OAuthClientInformationMixed) => {
            await credentials.saveClient(serverId, { ...info, server_url: serverUrl });
          },
        }),
    tokens: async (): Promise<OAuthTokens | undefined> => {
      if (host.forceLogin()) return undefined;
      const saved = await credentials.tokens(serverId, serverUrl);
      if (!saved) return undefined;
      const { obtained_at: _at, server_url: _url, ...tokens } = saved;
      return tokens;
    },
    saveTokens: async (tokens) => {
      host.tokensSaved();
      if (client.clientId && tokens.issuer) {
        // The pre-registered client's binding: its id and the server that took it, never its secret.
        await credentials.saveClient(serverId, {
          client_id: client.clientId,
          issuer: tokens.issuer,
          server_url: serverUrl,
        });
      }
      await credentials.saveTokens(serverId, { ...tokens, obtained_at: Date.now(), server_url: serverUrl });
    },
    redirectToAuthorization: (url) => {
      // The user types credentials there: https, or plain http on this machine only.
      if (parseSecureUrl(url.href).problem !== null) {
        host.dropPending();
        throw new Error(
          `the authorization server's login page ${url.origin} is not https; Cairn does not send you there`,
        );
      }
      const pending = host.pending();
      if (pending) pending.url = url.href;
    },
    saveCodeVerifier: (verifier) => {
      const pending = host.pending();
      if (pending) pending.verifier = verifier;
    },
    codeVerifier: () => {
      const verifier = host.completing()?.verifier;
      if (!verifier) throw new Error('no login is being finished');
      return verifier;
    },
    validateResourceURL: async (url, resource) => {
      // RFC 8707's `resource` always goes with the requests: the metadata's (when it names this server) or
      // the server's own URL where it has no metadata.
      const canonical = resourceUrlFromServerUrl(url);
      if (!resource) return canonical;
      if (!checkResourceAllowed({ requestedResource: canonical, configuredResource: resource })) {
        throw new Error(
          `the server's metadata names the resource ${cut(resource)}, which is not this server (${canonical.href})`,
        );
      }
      return new URL(resource);
    },
    invalidateCredentials: async (scope) => {
      // A code that fails to exchange (late, replayed) must not log out the login that still works.
      if (host.completing() && scope === 'tokens') return;
      if (scope === 'discovery' || scope === 'all') host.setDiscovery(undefined);
      if (scope === 'tokens' || scope === 'all' || scope === 'client') {
        await credentials.forget(serverId, scope === 'tokens' ? 'tokens' : 'all');
      }
    },
    saveDiscoveryState: (state) => host.setDiscovery(state),
    discoveryState: () => host.discovery(),
  };
}
