// The in-memory half of the test authorization server: clients, authorization codes and tokens, behind the
// SDK's `OAuthServerProvider` interface so the SDK's own handlers (authorize, token, register) drive it.
// It plays a user who clicks "Allow" at once, and it is strict where a real server is: PKCE (checked by the
// SDK's token handler through `challengeForAuthorizationCode`), the RFC 8707 `resource` in the authorization
// AND every token request, codes used once, redirect_uri bound to the code, refresh tokens bound to a client.
import crypto from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  AccessDeniedError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client known before any login, as a server's admin would set it up. */
export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  redirect_uris: string[];
  scope?: string;
}

/** An access token the server issued, with what it grants (tests may read it; it is all loopback). */
export interface IssuedToken {
  accessToken: string;
  refreshToken: string | null;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch, as `AuthInfo.expiresAt`. */
  expiresAt: number;
  resource: string;
  grant: 'authorization_code' | 'refresh_token';
}

/** What the test can change while the fixture runs. */
export interface AuthorizationBehaviour {
  /** The user clicks "Deny": the authorize endpoint redirects with `error=access_denied`. */
  denyAuthorization: boolean;
  /** Lifetime of new access tokens (the `expires_in` answered). */
  accessTokenLifetimeSeconds: number;
  /** Answer a refresh token with each access token. */
  issueRefreshTokens: boolean;
}

interface PendingCode {
  clientId: string;
  challenge: string;
  redirectUri: string;
  scopes: string[];
  resource: string;
  used: boolean;
}

interface RefreshGrant {
  clientId: string;
  scopes: string[];
  resource: string;
}

// As the SDK's bearer middleware compares resources: fragment and one trailing slash aside.
export function sameResource(a: string, b: string): boolean {
  const plain = (v: string) => v.replace(/#.*$/, '').replace(/\/$/, '');
  return plain(a) === plain(b);
}

const random = (prefix: string) => `${prefix}${crypto.randomBytes(24).toString('base64url')}`;

export class InMemoryOAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  /** Client ids that came through dynamic registration (RFC 7591). */
  readonly dynamicClientIds: string[] = [];
  readonly issued: IssuedToken[] = [];
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, IssuedToken>();
  private readonly refreshTokens = new Map<string, RefreshGrant>();
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(
    private readonly resource: string,
    readonly behaviour: AuthorizationBehaviour,
    options: {
      dynamicRegistration: boolean;
      advertisedAuthMethods: TokenEndpointAuthMethod[];
      /** Resolves a client id that is a URL (a client ID metadata document); undefined when unsupported. */
      resolveUrlClient?: (clientId: string) => Promise<OAuthClientInformationFull | undefined>;
    },
  ) {
    const store: OAuthRegisteredClientsStore = {
      getClient: (clientId) => {
        const known = this.clients.get(clientId);
        if (known || !options.resolveUrlClient || !/^https?:\/\//.test(clientId)) return known;
        // Resolved once, then known like any other client.
        return options.resolveUrlClient(clientId).then((resolved) => {
          if (resolved) this.clients.set(clientId, resolved);
          return resolved;
        });
      },
    };
    // The SDK's router offers /register only when the store can register; leave it out when DCR is off.
    if (options.dynamicRegistration) {
      store.registerClient = (client) => {
        const full = client as OAuthClientInformationFull;
        // RFC 7591 §2: an omitted method means client_secret_basic.
        const method = (full.token_endpoint_auth_method ?? 'client_secret_basic') as TokenEndpointAuthMethod;
        if (!options.advertisedAuthMethods.includes(method)) {
          throw new InvalidClientMetadataError(
            `token_endpoint_auth_method ${method} is not one this server supports (${options.advertisedAuthMethods.join(', ')})`,
          );
        }
        const registered = { ...full, token_endpoint_auth_method: method };
        this.clients.set(registered.client_id, registered);
        this.dynamicClientIds.push(registered.client_id);
        return registered;
      };
    }
    this.clientsStore = store;
  }

  addClient(client: PreRegisteredClient): void {
    this.clients.set(client.client_id, { ...client });
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Res): Promise<void> {
    // Thrown OAuth errors become a redirect with `error=` and the state (the SDK's authorize handler).
    if (this.behaviour.denyAuthorization) throw new AccessDeniedError('The user denied the request');
    this.checkResource(params.resource?.href, 'authorization request');
    const code = random('code-');
    this.codes.set(code, {
      clientId: client.client_id,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
      scopes: params.scopes ?? [],
      resource: params.resource!.href,
      used: false,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return this.pendingCode(client, code).challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const pending = this.pendingCode(client, code);
    if (redirectUri !== pending.redirectUri) {
      throw new InvalidGrantError(
        `redirect_uri ${redirectUri ?? '(none)'} is not the one the code was issued to`,
      );
    }
    this.checkResource(resource?.href, 'token request');
    pending.used = true;
    return this.issue(client.client_id, pending.scopes, 'authorization_code');
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) {
      throw new InvalidGrantError('Unknown, used or revoked refresh token');
    }
    this.checkResource(resource?.href, 'refresh request');
    const wanted = scopes ?? grant.scopes;
    const extra = wanted.filter((s) => !grant.scopes.includes(s));
    if (extra.length > 0) throw new InvalidScopeError(`Scopes not granted before: ${extra.join(' ')}`);
    // Rotation: the old refresh token is spent.
    this.refreshTokens.delete(refreshToken);
    return this.issue(client.client_id, wanted, 'refresh_token');
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.accessTokens.get(token);
    if (!found) throw new InvalidTokenError('Unknown or revoked access token');
    return {
      token,
      clientId: found.clientId,
      scopes: found.scopes,
      expiresAt: found.expiresAt,
      resource: new URL(found.resource),
    };
  }

  /** Every access token stops working (expired, not forgotten): the next request gets 401 invalid_token. */
  expireTokens(): void {
    const past = Math.floor(Date.now() / 1000) - 60;
    for (const t of this.accessTokens.values()) t.expiresAt = past;
  }

  /** Forgets every access and refresh token: only a new login helps. */
  revokeAll(): void {
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  private pendingCode(client: OAuthClientInformationFull, code: string): PendingCode {
    const pending = this.codes.get(code);
    if (!pending || pending.used) throw new InvalidGrantError('Unknown or already used authorization code');
    if (pending.clientId !== client.client_id) {
      throw new InvalidGrantError('The authorization code was issued to another client');
    }
    return pending;
  }

  private checkResource(given: string | undefined, where: string): void {
    if (given === undefined) {
      throw new InvalidTargetError(
        `The ${where} has no resource parameter (RFC 8707); expected ${this.resource}`,
      );
    }
    if (!sameResource(given, this.resource)) {
      throw new InvalidTargetError(
        `The ${where} names resource ${given}; this server serves ${this.resource}`,
      );
    }
  }

  private issue(clientId: string, scopes: string[], grant: IssuedToken['grant']): OAuthTokens {
    const lifetime = this.behaviour.accessTokenLifetimeSeconds;
    const token: IssuedToken = {
      accessToken: random('at-'),
      refreshToken: this.behaviour.issueRefreshTokens ? random('rt-') : null,
      clientId,
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + lifetime,
      resource: this.resource,
      grant,
    };
    this.accessTokens.set(token.accessToken, token);
    if (token.refreshToken)
      this.refreshTokens.set(token.refreshToken, { clientId, scopes, resource: this.resource });
    this.issued.push(token);
    return {
      access_token: token.accessToken,
      token_type: 'Bearer',
      expires_in: lifetime,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
    };
  }
}

// Express's response as far as this file uses it (express ships no types here; the SDK's are `any`).
interface Res {
  redirect(status: number, url: string): void;
}
