import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '../../log/logger';
import type { McpTokenStorage } from '../../protocol/mcp';
import { describe } from '../describe-error';
import type { LoginStates } from './login-states';
import type { OAuthCredentials, StoredTokens } from './oauth-credentials';
import { cut, type OAuthClientConfig, oauthProvider, type PendingLogin } from './oauth-provider';

export type { OAuthClientConfig } from './oauth-provider';

/** Refresh a token this long before it expires, so a request does not go out with one about to lapse. */
export const REFRESH_AHEAD_MS = 60_000;

/** What a 401 or 403's `WWW-Authenticate` said. */
export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

export interface ServerOAuthOptions {
  serverId: string;
  serverName: string;
  /** The MCP endpoint (the protected resource). */
  serverUrl: string;
  client: OAuthClientConfig;
  /** `<base URL>/api/mcp/oauth/callback`; null where logins cannot be finished (`refusal` says why). */
  redirectUri: string | null;
  refusal: string | null;
  credentials: OAuthCredentials;
  states: LoginStates<ServerOAuth>;
  /** For discovery, registration and token requests. */
  fetch: FetchLike;
  logger: Logger;
}

export type LoginEvent =
  | { kind: 'required'; url: string }
  | { kind: 'authorized' }
  | { kind: 'failed'; why: string }
  | { kind: 'logged_out' };

/** A login is needed and no call can wait for it (a connect): the session waits, or the user logs in. */
export class McpLoginRequired extends Error {
  override name = 'McpLoginRequired';
  constructor(
    serverName: string,
    readonly authorizationUrl: string | null,
    why?: string,
  ) {
    super(why ?? `MCP server "${serverName}" needs you to log in: use "Log in" on the server`);
  }
}

/** Whether a login asking for `have` also grants `want`. */
const covers = (have: string | undefined, want: string | undefined): boolean => {
  const held = new Set((have ?? '').split(' '));
  return (want ?? '').split(' ').every((s) => s === '' || held.has(s));
};

const joinScopes = (...lists: (string | undefined)[]): string | undefined => {
  const all = new Set(lists.flatMap((s) => (s ?? '').split(' ')).filter((s) => s.length > 0));
  return all.size > 0 ? [...all].join(' ') : undefined;
};

/**
 * One server's OAuth login, shared by every session that uses the server: tokens (refreshed before they
 * lapse), the SDK's flow on a 401 or a 403 `insufficient_scope` (discovery, registration, PKCE, `resource`),
 * the login under way and its callback. Runs of the flow are one at a time.
 */
export class ServerOAuth {
  private pending: PendingLogin | null = null;
  /** The login whose callback is being finished (its verifier is read by the SDK). */
  private completing: PendingLogin | null = null;
  private discovery: OAuthDiscoveryState | undefined;
  private challenge: Challenge = {};
  /** Set for one run (a step-up, Log in): the refresh token cannot widen scopes, so the user is asked. */
  private forceLogin = false;
  /** The scopes the run under way asks for (kept with its login). */
  private runScope: string | undefined;
  /** The scopes of the last login asked for: a token answer may omit what it grants. */
  private requestedScope: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private refreshing: Promise<unknown> | null = null;
  private readonly listeners = new Set<(event: LoginEvent) => void>();
  private readonly provider: OAuthClientProvider;

  constructor(private readonly opts: ServerOAuthOptions) {
    this.provider = oauthProvider(opts, {
      forceLogin: () => this.forceLogin,
      completing: () => this.completing,
      newLogin: () => {
        this.refuseWithoutRedirect();
        this.dropPending();
        const { state, expiresAt } = this.opts.states.issue(this);
        this.requestedScope = this.runScope;
        this.pending = { state, scope: this.runScope, expiresAt, verifier: null, url: null };
        return state;
      },
      pending: () => this.pending,
      dropPending: () => this.dropPending(),
      tokensSaved: () => {
        this.forceLogin = false;
      },
      discovery: () => this.discovery,
      setDiscovery: (state) => {
        this.discovery = state;
      },
    });
  }

  get serverId(): string {
    return this.opts.serverId;
  }

  get serverName(): string {
    return this.opts.serverName;
  }

  get redirectUri(): string | null {
    return this.opts.redirectUri;
  }

  /** The URL of the login waiting for the user, or null. */
  get authorizationUrl(): string | null {
    const p = this.pending;
    return p?.url && p.expiresAt > Date.now() ? p.url : null;
  }

  get tokenStorage(): McpTokenStorage {
    return this.opts.credentials.storage;
  }

  async loggedIn(): Promise<boolean> {
    return (await this.storedTokens()) !== undefined;
  }

  onEvent(listener: (event: LoginEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The access token for the next request, refreshed first when it is about to expire; null without one. */
  async accessToken(): Promise<string | null> {
    const tokens = await this.storedTokens();
    if (!tokens) return null;
    if (!this.refreshDue(tokens)) return tokens.access_token;
    // Requests that find it due at once share one refresh.
    this.refreshing ??= this.runFlow({})
      .catch((err: unknown) => this.opts.logger.warn('mcp oauth refresh failed', { error: describe(err) }))
      .finally(() => {
        this.refreshing = null;
      });
    await this.refreshing;
    return (await this.storedTokens())?.access_token ?? null;
  }

  /** Within REFRESH_AHEAD_MS of expiry (half the lifetime for short-lived tokens), with a refresh token. */
  private refreshDue(tokens: StoredTokens): boolean {
    if (!tokens.refresh_token || tokens.expires_in === undefined) return false;
    const lifetimeMs = tokens.expires_in * 1000;
    return Date.now() >= tokens.obtained_at + lifetimeMs - Math.min(REFRESH_AHEAD_MS, lifetimeMs / 2);
  }

  /**
   * After a 401: tokens again without the user (a refresh) → 'authorized'; else a login is waiting for the
   * user → 'login' (its URL in `authorizationUrl`).
   */
  async recover(challenge: Challenge): Promise<'authorized' | 'login'> {
    this.challenge = { ...this.challenge, ...challenge };
    const registered =
      this.opts.client.clientId !== null ||
      (await this.opts.credentials.client(this.opts.serverId, this.opts.serverUrl)) !== undefined;
    const refreshable = registered && (await this.storedTokens())?.refresh_token !== undefined;
    // Where no login can be finished, a refresh still can (a login made earlier, e.g. for `cairn run`).
    if (!refreshable) this.refuseWithoutRedirect();
    // A login already waits for the user and there is no refresh token to try: that login is the way.
    if (this.authorizationUrl && !refreshable) return 'login';
    return (await this.runFlow({ scope: challenge.scope })) === 'AUTHORIZED' ? 'authorized' : 'login';
  }

  /** After a 403 `insufficient_scope`: a login asking for the scopes held and those the server named. */
  async stepUp(challenge: Challenge): Promise<'login'> {
    this.refuseWithoutRedirect();
    this.challenge = { ...this.challenge, ...challenge };
    const held = (await this.storedTokens())?.scope ?? this.requestedScope;
    const wanted = joinScopes(held, challenge.scope);
    await this.runFlow({ scope: wanted, fresh: true, share: true });
    return 'login';
  }

  /** A login started by the user (Log in): the one waiting, or a new one. Returns its URL. */
  async startLogin(): Promise<string> {
    this.refuseWithoutRedirect();
    const waiting = this.authorizationUrl;
    if (waiting) return waiting;
    await this.runFlow({ scope: this.challenge.scope, fresh: true });
    const url = this.authorizationUrl;
    if (!url)
      throw new Error(`the authorization server of MCP server "${this.opts.serverName}" gave no login URL`);
    return url;
  }

  /**
   * The callback of the login `state` names (LoginStates gave it to this server): exchanges the code, or
   * records the authorization server's refusal. Throws an Error saying what went wrong.
   */
  async complete(state: string, answer: { code?: string; error?: string; errorDescription?: string }) {
    const pending = this.pending;
    if (!pending || pending.state !== state || pending.expiresAt <= Date.now()) {
      throw new Error(
        'this login is no longer waiting (a newer one replaced it, or it expired): start it again',
      );
    }
    this.pending = null;
    if (answer.error || !answer.code) {
      // The callback's query is anyone's to write: what it says is cut before it goes anywhere.
      const why = `the authorization server did not grant access (${cut(`${answer.error ?? 'no code'}${answer.errorDescription ? `: ${answer.errorDescription}` : ''}`)})`;
      this.emit({ kind: 'failed', why });
      throw new Error(why);
    }
    this.completing = pending;
    try {
      await this.runFlow({ code: answer.code });
    } catch (err) {
      const why = `the login could not be finished: ${describe(err)}`;
      this.emit({ kind: 'failed', why });
      throw new Error(why);
    } finally {
      this.completing = null;
    }
    this.emit({ kind: 'authorized' });
  }

  /** Log out: forgets the tokens and any login under way (the registered client is kept). */
  async logout(): Promise<void> {
    this.dropPending();
    await this.opts.credentials.forget(this.opts.serverId, 'tokens');
    this.emit({ kind: 'logged_out' });
  }

  /** Replaced by another for changed settings: its login under way ends (its state is no longer taken). */
  abandon(): void {
    if (!this.pending) return;
    this.dropPending();
    this.emit({
      kind: 'failed',
      why: "the server's settings changed while the login was waiting: log in again",
    });
  }

  /** The server is deleted or its settings changed: forgets everything of its login. */
  async forgetAll(): Promise<void> {
    this.dropPending();
    await this.opts.credentials.forget(this.opts.serverId, 'all');
  }

  /** Resolves at the next successful login; rejects when it fails, on `signal`, or after `timeoutMs`. */
  waitForLogin(signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        stop();
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const stop = this.onEvent((event) => {
        if (event.kind === 'authorized') done();
        else if (event.kind === 'failed')
          done(new Error(`the login to MCP server "${this.opts.serverName}" failed: ${event.why}`));
      });
      const timer = setTimeout(
        () =>
          done(
            new Error(
              `no login to MCP server "${this.opts.serverName}" within ${Math.round(timeoutMs / 1000)} s`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = () =>
        done(new Error(`waiting for the login to MCP server "${this.opts.serverName}" was cancelled`));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
  }

  private refuseWithoutRedirect(): void {
    if (!this.opts.redirectUri) {
      throw new McpLoginRequired(
        this.opts.serverName,
        null,
        `MCP server "${this.opts.serverName}" needs a login, ${this.opts.refusal ?? 'which cannot be done here'}`,
      );
    }
  }

  private dropPending(): void {
    if (this.pending) this.opts.states.drop(this.pending.state);
    this.pending = null;
  }

  private emit(event: LoginEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.opts.logger.warn('mcp oauth listener threw', { error: describe(err) });
      }
    }
  }

  /**
   * One run of the SDK's flow at a time for this server (refreshes and logins must not cross). Scopes: the
   * server's configured ones, else those asked for (the challenge's), else the SDK's choice (the resource's
   * scopes_supported). `fresh`: a new login even when a refresh token could be used.
   */
  private runFlow(options: {
    scope?: string;
    code?: string;
    fresh?: boolean;
    /** A login already waiting that asks for these scopes (or more) serves: its URL must stay valid. */
    share?: boolean;
  }): Promise<'AUTHORIZED' | 'REDIRECT'> {
    const run = async (): Promise<'AUTHORIZED' | 'REDIRECT'> => {
      const configured = joinScopes(...(this.opts.client.scopes ?? []));
      const scope = options.fresh ? joinScopes(configured, options.scope) : (configured ?? options.scope);
      if (options.share && this.authorizationUrl && covers(this.pending?.scope, scope)) return 'REDIRECT';
      this.forceLogin = options.fresh === true;
      this.runScope = scope;
      let result: 'AUTHORIZED' | 'REDIRECT';
      try {
        result = await auth(this.provider, {
          serverUrl: this.opts.serverUrl,
          ...(options.code !== undefined ? { authorizationCode: options.code } : {}),
          ...(scope ? { scope } : {}),
          ...(this.challenge.resourceMetadataUrl
            ? { resourceMetadataUrl: this.challenge.resourceMetadataUrl }
            : {}),
          fetchFn: this.opts.fetch,
        });
      } catch (err) {
        throw new Error(cut(describe(err)), { cause: err });
      } finally {
        this.forceLogin = false;
      }
      if (result === 'REDIRECT' && this.pending?.url) this.emit({ kind: 'required', url: this.pending.url });
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private async storedTokens() {
    return this.opts.credentials.tokens(this.opts.serverId, this.opts.serverUrl);
  }
}
