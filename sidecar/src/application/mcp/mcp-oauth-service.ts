import { createHash } from 'node:crypto';
import { badRequest, CairnError } from '../../errors';
import type { Logger } from '../../log/logger';
import type { ResolvedMcpServer } from '../../mcp/mcp-connection';
import { LoginStates } from '../../mcp/oauth/login-states';
import { OAuthCredentials } from '../../mcp/oauth/oauth-credentials';
import { oauthRequestFetch } from '../../mcp/oauth/oauth-fetch';
import { type LoginEvent, type OAuthClientConfig, ServerOAuth } from '../../mcp/oauth/server-oauth';
import { resolveServer } from '../../mcp/resolve-server';
import type { McpAuthorizeResult, McpTokenStorage } from '../../protocol';
import type { Keychain } from '../../secrets/keychain';
import type { McpServerRow } from '../../store/mcp-servers-repo';
import { mcpSecretAccount } from './mcp-secret-account';

/** Where the authorization server sends the user back, under the base URL Cairn answers at. */
export const OAUTH_CALLBACK_PATH = '/api/mcp/oauth/callback';

/** How long a turn (or a call) waits for the user to log in, unless told otherwise. */
export const LOGIN_WAIT_MS = 10 * 60_000;

export interface McpOAuthStatus {
  redirect_uri: string | null;
  authorization_url: string | null;
  logged_in: boolean;
  token_storage: McpTokenStorage;
}

/** What the callback page says. */
export interface CallbackOutcome {
  ok: boolean;
  message: string;
}

/**
 * MCP servers' OAuth logins, one per server shared by all sessions: the redirect URI (from the address the
 * server answers at), logins started by the user or by a 401, the callback, log out, and events for the
 * sessions waiting on a login. Tokens and registered clients are in the keychain (OAuthCredentials).
 */
export class McpOAuthService {
  private readonly servers = new Map<string, { key: string; oauth: ServerOAuth; stop: () => void }>();
  private readonly states = new LoginStates<ServerOAuth>();
  private readonly credentials: OAuthCredentials;
  private callbackBase: string | null = null;
  // `cairn run` on a data directory serves no HTTP: nothing could take the login's callback.
  private refusal =
    "which cannot be finished here (nothing listens for the login's callback): log in first with `cairn config mcp authorize ID` or in the app, then run again";
  private readonly listeners = new Set<(serverId: string, event: LoginEvent) => void>();
  /** When each server last completed a login (for a waiter that started after it). */
  private readonly authorizedAt = new Map<string, number>();

  constructor(
    private readonly options: {
      keychain: Keychain;
      env: NodeJS.ProcessEnv;
      logger: Logger;
      loginWaitMs?: number;
    },
  ) {
    this.credentials = new OAuthCredentials(options.keychain);
  }

  get loginWaitMs(): number {
    return this.options.loginWaitMs ?? LOGIN_WAIT_MS;
  }

  /**
   * The base URL logins come back to (`cairn serve`'s loopback address or its --public-url), or null with the
   * reason logins are refused (a remote server without --public-url).
   */
  setCallbackBase(base: string | null, refusal?: string): void {
    this.callbackBase = base === null ? null : base.replace(/\/+$/, '');
    if (refusal) this.refusal = refusal;
  }

  get redirectUri(): string | null {
    return this.callbackBase === null ? null : `${this.callbackBase}${OAUTH_CALLBACK_PATH}`;
  }

  onEvent(listener: (serverId: string, event: LoginEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The resolved server with its login attached (when it is one that logs in with OAuth). */
  attach(row: McpServerRow, server: ResolvedMcpServer, client: OAuthClientConfig | null): ResolvedMcpServer {
    if (!client || !server.url) return { ...server, oauth: null };
    return { ...server, oauth: this.forServer(row, server.url, client), loginWaitMs: this.loginWaitMs };
  }

  /** Starts a login outside a session (or returns the one waiting): where the user goes to log in. */
  async authorize(row: McpServerRow): Promise<McpAuthorizeResult> {
    const { oauth } = await this.resolve(row);
    try {
      return { authorization_url: await oauth.startLogin() };
    } catch (err) {
      throw new CairnError(
        'mcp_unavailable',
        `Could not start a login to "${row.config.name}": ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** The authorization server's redirect back: only a state issued here, once, before it expires. */
  async callback(query: Record<string, string | undefined>): Promise<CallbackOutcome> {
    const state = query.state;
    const owner = state ? this.states.take(state) : null;
    if (!state || !owner) {
      return {
        ok: false,
        message:
          'This login link is not one Cairn is waiting for (it was used already, expired, or did not come from Cairn). Start the login again from Cairn.',
      };
    }
    try {
      await owner.complete(state, {
        ...(query.code !== undefined ? { code: query.code } : {}),
        ...(query.error !== undefined ? { error: query.error } : {}),
        ...(query.error_description !== undefined ? { errorDescription: query.error_description } : {}),
      });
    } catch (err) {
      return { ok: false, message: `Login to "${owner.serverName}" failed: ${(err as Error).message}.` };
    }
    return { ok: true, message: `Logged in to "${owner.serverName}". You can close this page.` };
  }

  /** Log out: forgets the server's tokens. */
  async logout(row: McpServerRow): Promise<void> {
    const held = this.servers.get(row.id);
    if (held) await held.oauth.logout();
    else await this.credentials.forget(row.id, 'tokens');
  }

  /** The server was deleted, or its endpoint or OAuth settings changed: its login and client are forgotten. */
  async forget(serverId: string): Promise<void> {
    const held = this.servers.get(serverId);
    this.servers.delete(serverId);
    held?.stop();
    held?.oauth.abandon();
    if (held) await held.oauth.forgetAll();
    else await this.credentials.forget(serverId, 'all');
  }

  async status(row: McpServerRow): Promise<McpOAuthStatus> {
    const http = row.config.transport === 'streamable_http' && row.config.url !== null;
    const held = this.servers.get(row.id)?.oauth;
    const tokens = http ? await this.credentials.tokens(row.id, row.config.url!) : undefined;
    return {
      redirect_uri: http ? this.redirectUri : null,
      authorization_url: held?.authorizationUrl ?? null,
      logged_in: tokens !== undefined,
      token_storage: this.credentials.storage,
    };
  }

  /**
   * Resolves at the server's next completed login (or at once when one completed after `since`); rejects when
   * a login fails, on `signal`, or after the login wait.
   */
  waitForLogin(serverId: string, since: number, signal?: AbortSignal): Promise<void> {
    if ((this.authorizedAt.get(serverId) ?? 0) > since) return Promise.resolve();
    const held = this.servers.get(serverId);
    if (!held) return Promise.reject(new Error('no login is under way for this server'));
    return held.oauth.waitForLogin(signal, this.loginWaitMs);
  }

  private forServer(row: McpServerRow, serverUrl: string, client: OAuthClientConfig): ServerOAuth {
    // What the login depends on; the secret only as a digest (the key is kept in memory, but need not hold it).
    const secret = client.clientSecret
      ? createHash('sha256').update(client.clientSecret).digest('hex')
      : null;
    const key = JSON.stringify([
      row.config.name,
      serverUrl,
      { ...client, clientSecret: secret },
      this.redirectUri,
    ]);
    const held = this.servers.get(row.id);
    if (held?.key === key) return held.oauth;
    if (held) {
      held.stop();
      // Its login would finish on an object nobody listens to: it is dropped (the user starts it again).
      held.oauth.abandon();
    }
    const oauth = new ServerOAuth({
      serverId: row.id,
      serverName: row.config.name,
      serverUrl,
      client,
      redirectUri: this.redirectUri,
      refusal: this.refusal,
      credentials: this.credentials,
      states: this.states,
      fetch: oauthRequestFetch(serverUrl),
      logger: this.options.logger.child({ mcp_server: row.config.name }),
    });
    const stop = oauth.onEvent((event) => {
      if (event.kind === 'authorized') this.authorizedAt.set(row.id, Date.now());
      for (const listener of this.listeners) listener(row.id, event);
    });
    this.servers.set(row.id, { key, oauth, stop });
    return oauth;
  }

  private async resolve(row: McpServerRow): Promise<{ oauth: ServerOAuth }> {
    if (row.config.transport !== 'streamable_http' || !row.config.url) {
      throw badRequest(`"${row.config.name}" is a stdio server: logins are for Streamable HTTP servers.`);
    }
    const { server, oauthClient } = await resolveServer(row.config, {
      serverId: row.id,
      cwd: '.',
      baseEnv: {},
      lookupEnv: this.options.env,
      keychain: this.options.keychain,
      secretAccount: mcpSecretAccount,
    });
    if (!oauthClient) {
      throw badRequest(
        `"${row.config.name}" has a bearer token or an Authorization header of its own: remove it to log in with OAuth.`,
      );
    }
    if (!this.redirectUri) throw badRequest(`MCP logins are refused here: ${this.refusal}.`);
    return { oauth: this.forServer(row, server.url!, oauthClient) };
  }
}
