import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CairnError } from '../../errors';
import type { McpTokenStorage } from '../../protocol/mcp';
import type { Keychain } from '../../secrets/keychain';
import { registerSecret } from '../../secrets/known-secrets';

/** Tokens as kept: with when they were obtained (expiry is relative) and the endpoint they are for. */
export interface StoredTokens extends OAuthTokens {
  obtained_at: number;
  /** The MCP endpoint these tokens were obtained for: another URL in the config forgets them. */
  server_url: string;
}

/** A client registered dynamically (or named by its metadata URL), with the redirect URI it was given. */
export type StoredClient = OAuthClientInformationMixed & { server_url: string };

type Kind = 'tokens' | 'client';

/** The keychain account of a server's login: apart from its config secrets (`mcp:<id>:<name>`). */
export const oauthAccount = (serverId: string, kind: Kind): string => `mcp-oauth:${serverId}:${kind}`;

/**
 * A server's OAuth tokens and registered client, kept in the OS keychain; in this process's memory only when
 * no keychain exists (`storage` says which). Never in SQLite or logs: each value read or written is registered
 * as a secret, so the log redacts it. What was read is kept in memory too: every MCP request asks for it.
 */
export class OAuthCredentials {
  private mode: McpTokenStorage = 'keychain';
  /** Values by account: a copy of the keychain's, or the only one without a keychain. */
  private readonly memory = new Map<string, string | null>();

  constructor(private readonly keychain: Keychain) {}

  get storage(): McpTokenStorage {
    return this.mode;
  }

  async tokens(serverId: string, serverUrl: string): Promise<StoredTokens | undefined> {
    const value = await this.read<StoredTokens>(oauthAccount(serverId, 'tokens'));
    registerSecret(value?.access_token);
    registerSecret(value?.refresh_token);
    return value?.server_url === serverUrl ? value : undefined;
  }

  async saveTokens(serverId: string, tokens: StoredTokens): Promise<void> {
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    // An ID token is of no use to Cairn and would only grow the entry (Windows keeps ~2.5 KB per entry).
    const { id_token: _idToken, ...kept } = tokens;
    await this.write(oauthAccount(serverId, 'tokens'), kept);
  }

  async client(serverId: string, serverUrl: string): Promise<StoredClient | undefined> {
    const value = await this.read<StoredClient>(oauthAccount(serverId, 'client'));
    registerSecret(value?.client_secret);
    return value?.server_url === serverUrl ? value : undefined;
  }

  async saveClient(serverId: string, client: StoredClient): Promise<void> {
    registerSecret(client.client_secret);
    await this.write(oauthAccount(serverId, 'client'), client);
  }

  /** Forgets the tokens (log out), or the registered client too: in memory and in the keychain alike. */
  async forget(serverId: string, what: 'tokens' | 'all'): Promise<void> {
    const kinds: Kind[] = what === 'all' ? ['tokens', 'client'] : ['tokens'];
    for (const kind of kinds) {
      const account = oauthAccount(serverId, kind);
      this.memory.set(account, null);
      // Whatever the mode: an entry written before the keychain failed must not come back after a restart.
      await this.keychain.delete(account).catch(() => false);
    }
  }

  private async read<T extends object>(account: string): Promise<T | undefined> {
    let raw = this.memory.get(account);
    if (raw === undefined && this.mode === 'keychain') {
      try {
        raw = await this.keychain.get(account);
        this.memory.set(account, raw);
      } catch (err) {
        this.unavailable(err);
      }
    }
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  }

  private async write(account: string, value: object): Promise<void> {
    const raw = JSON.stringify(value);
    this.memory.set(account, raw);
    if (this.mode === 'memory') return;
    try {
      await this.keychain.set(account, raw);
    } catch (err) {
      this.unavailable(err);
    }
  }

  /** No keychain here: memory from now on. Another failure (a locked keychain) is thrown. */
  private unavailable(err: unknown): void {
    if (err instanceof CairnError && err.code === 'keychain_unavailable') this.mode = 'memory';
    else throw err;
  }
}
