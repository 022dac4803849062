import { isHttpsUrl } from '@modelcontextprotocol/sdk/client/auth.js';
import { badRequest, CairnError, notFound } from '../../errors';
import { parseCommandLine } from '../../mcp/command-line';
import { checkMcpUrl } from '../../mcp/mcp-url';
import {
  type CreateMcpServerRequest,
  MCP_BEARER_SECRET,
  MCP_DEFAULTS,
  MCP_OAUTH_CLIENT_SECRET,
  type McpOAuth,
  type McpOAuthInput,
  type McpServer,
  type McpValue,
  type McpValueInput,
  type SetMcpSecretsRequest,
  type UpdateMcpServerRequest,
} from '../../protocol';
import { type Keychain, withKeychainHint } from '../../secrets/keychain';
import type {
  McpServerConfig,
  McpServerRow,
  StoredMcpOAuth,
  StoredMcpValue,
} from '../../store/mcp-servers-repo';
import type { Store } from '../../store/store';
import type { McpOAuthService } from './mcp-oauth-service';
import { mcpSecretAccount } from './mcp-secret-account';

export { mcpSecretAccount } from './mcp-secret-account';

export const MCP_SECRET_HINT =
  'No OS keychain is available to keep MCP secrets here: use an environment reference instead ({"env":"VAR"} with VAR set where Cairn runs).';

/** The names of a config's values marked secret (env variables, headers, the bearer token). */
export function secretNames(config: McpServerConfig): string[] {
  const names = new Set<string>();
  for (const [name, value] of [...Object.entries(config.env), ...Object.entries(config.headers)]) {
    if (isSecret(value)) names.add(name);
  }
  if (config.bearer_token && isSecret(config.bearer_token)) names.add(MCP_BEARER_SECRET);
  if (config.oauth?.client_secret && isSecret(config.oauth.client_secret)) names.add(MCP_OAUTH_CLIENT_SECRET);
  return [...names];
}

const isSecret = (value: StoredMcpValue): value is { secret: true } =>
  typeof value === 'object' && 'secret' in value;

/**
 * MCP server configurations: validated on the way in, stored without secret values (those go to the OS
 * keychain, set only through setSecrets), and shown with each secret as whether it has a value.
 */
export class McpConfigService {
  constructor(
    private readonly store: Store,
    private readonly keychain: Keychain,
    private readonly oauth: McpOAuthService,
  ) {}

  async list(): Promise<McpServer[]> {
    return Promise.all(this.store.mcpServers.list().map((row) => this.view(row)));
  }

  async get(id: string): Promise<McpServer> {
    return this.view(this.row(id));
  }

  row(id: string): McpServerRow {
    const row = this.store.mcpServers.get(id);
    if (!row) throw notFound('MCP server', id);
    return row;
  }

  async create(request: CreateMcpServerRequest): Promise<McpServer> {
    const config = validate({
      name: request.name,
      transport: request.transport,
      command: request.command ?? null,
      env: request.env ?? {},
      url: request.url ?? null,
      headers: request.headers ?? {},
      bearer_token: request.bearer_token ?? null,
      oauth: request.oauth ?? null,
      allow_tools: request.allow_tools === undefined ? null : request.allow_tools,
      deny_tools: request.deny_tools ?? [],
      startup_timeout_sec: request.startup_timeout_sec ?? MCP_DEFAULTS.startup_timeout_sec,
      tool_timeout_sec: request.tool_timeout_sec ?? MCP_DEFAULTS.tool_timeout_sec,
      block_on_failure: request.block_on_failure ?? false,
    });
    this.assertNameFree(config.name, null);
    return this.view(this.store.mcpServers.create(config));
  }

  async update(id: string, patch: UpdateMcpServerRequest): Promise<McpServer> {
    const row = this.row(id);
    const { enabled, ...fields } = patch;
    const merged: McpServerConfig = { ...row.config };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
    }
    const config = validate(merged);
    this.assertNameFree(config.name, id);
    // A value that stopped being a secret leaves its keychain entry behind: remove it.
    const kept = new Set(secretNames(config));
    for (const name of secretNames(row.config)) {
      if (!kept.has(name)) await this.keychain.delete(mcpSecretAccount(id, name)).catch(() => false);
    }
    // Tokens and a registered client belong to the endpoint and the client settings they were obtained with.
    if (config.url !== row.config.url || JSON.stringify(config.oauth) !== JSON.stringify(row.config.oauth)) {
      await this.oauth.forget(id);
    }
    const updated = this.store.mcpServers.update(id, config, enabled ?? row.enabled);
    if (!updated) throw notFound('MCP server', id);
    return this.view(updated);
  }

  /** Removes the server and its secrets; sessions that run with it keep their snapshot until reset. */
  async delete(id: string): Promise<void> {
    const row = this.row(id);
    for (const name of secretNames(row.config)) {
      await this.keychain.delete(mcpSecretAccount(id, name)).catch(() => false);
    }
    await this.oauth.forget(id);
    this.store.mcpServers.delete(id);
  }

  /**
   * Sets (a string) or removes (null) secret values; an empty string keeps the saved one. Only names the
   * config marks as secret are accepted.
   */
  async setSecrets(id: string, secrets: SetMcpSecretsRequest): Promise<McpServer> {
    const row = this.row(id);
    const allowed = new Set(secretNames(row.config));
    const unknown = Object.keys(secrets).filter((name) => !allowed.has(name));
    if (unknown.length > 0) {
      const known = allowed.size > 0 ? `Its secret values are: ${[...allowed].join(', ')}.` : 'It has none.';
      throw badRequest(
        `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a secret value of "${row.config.name}": mark the env variable, header, bearer token or OAuth client secret as {"secret":true} first. ${known}`,
      );
    }
    try {
      for (const [name, value] of Object.entries(secrets)) {
        const account = mcpSecretAccount(id, name);
        if (value === null) await this.keychain.delete(account);
        else if (value !== '') await this.keychain.set(account, value);
      }
    } catch (err) {
      throw withKeychainHint(err, MCP_SECRET_HINT);
    }
    return this.view(row);
  }

  /** The wire view: secrets as whether a value is saved, never the value. */
  private async view(row: McpServerRow): Promise<McpServer> {
    const has = new Map<string, boolean>();
    for (const name of secretNames(row.config)) {
      const value = await this.keychain.get(mcpSecretAccount(row.id, name)).catch(() => null);
      has.set(name, value !== null);
    }
    const show = (name: string, value: StoredMcpValue): McpValue =>
      isSecret(value) ? { secret: true, has_value: has.get(name) ?? false } : value;
    const map = (values: Record<string, StoredMcpValue>) =>
      Object.fromEntries(Object.entries(values).map(([name, value]) => [name, show(name, value)]));
    const { config } = row;
    const oauth = (o: StoredMcpOAuth): McpOAuth => ({
      ...(o.client_id !== undefined ? { client_id: o.client_id } : {}),
      ...(o.client_secret !== undefined
        ? { client_secret: show(MCP_OAUTH_CLIENT_SECRET, o.client_secret) }
        : {}),
      ...(o.scopes !== undefined ? { scopes: o.scopes } : {}),
      ...(o.client_metadata_url !== undefined ? { client_metadata_url: o.client_metadata_url } : {}),
    });
    return {
      id: row.id,
      enabled: row.enabled,
      name: config.name,
      transport: config.transport,
      command: config.command,
      env: map(config.env),
      url: config.url,
      headers: map(config.headers),
      bearer_token: config.bearer_token === null ? null : show(MCP_BEARER_SECRET, config.bearer_token),
      oauth: config.oauth === null ? null : oauth(config.oauth),
      allow_tools: config.allow_tools,
      deny_tools: config.deny_tools,
      startup_timeout_sec: config.startup_timeout_sec,
      tool_timeout_sec: config.tool_timeout_sec,
      block_on_failure: config.block_on_failure,
      ...(await this.oauth.status(row)),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private assertNameFree(name: string, exceptId: string | null): void {
    const other = this.store.mcpServers.byName(name);
    if (other && other.id !== exceptId) {
      throw new CairnError('conflict', `An MCP server named "${name}" exists already: choose another name.`);
    }
  }
}

/** The transport's own fields must be there, the other transport's must not; the command must parse. */
function validate(config: McpServerConfig): McpServerConfig {
  const normalised: McpServerConfig = {
    ...config,
    name: config.name.trim(),
    env: storedValues(config.env),
    headers: storedValues(config.headers),
    bearer_token: config.bearer_token === null ? null : stored(config.bearer_token),
    oauth: config.oauth === null || config.oauth === undefined ? null : storedOAuth(config.oauth),
  };
  if (normalised.transport === 'stdio') {
    if (!normalised.command?.trim()) {
      throw badRequest(
        'A stdio server needs its command line (command), e.g. "npx -y @modelcontextprotocol/server-everything".',
      );
    }
    try {
      parseCommandLine(normalised.command);
    } catch (err) {
      throw badRequest(
        `The command line cannot be read: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (normalised.url !== null)
      throw badRequest('A stdio server has no url: remove it, or use transport "streamable_http".');
    if (Object.keys(normalised.headers).length > 0 || normalised.bearer_token !== null) {
      throw badRequest(
        'Headers and a bearer token are for HTTP servers; a stdio server takes env variables.',
      );
    }
    if (normalised.oauth !== null) {
      throw badRequest(
        'OAuth settings are for HTTP servers: remove oauth, or use transport "streamable_http".',
      );
    }
  } else {
    if (!normalised.url)
      throw badRequest('A Streamable HTTP server needs its endpoint (url), e.g. https://example.com/mcp.');
    try {
      normalised.url = checkMcpUrl(normalised.url);
    } catch (err) {
      throw badRequest(err instanceof Error ? err.message : String(err));
    }
    if (normalised.command !== null) {
      throw badRequest('A Streamable HTTP server has no command: remove it, or use transport "stdio".');
    }
    if (Object.keys(normalised.env).length > 0) {
      throw badRequest(
        'Env variables are for stdio servers, which Cairn starts; an HTTP server takes headers.',
      );
    }
    if (normalised.oauth) checkOAuth(normalised.oauth);
  }
  return normalised;
}

function checkOAuth(oauth: StoredMcpOAuth): void {
  if (oauth.client_secret !== undefined && oauth.client_id === undefined) {
    throw badRequest('oauth.client_secret belongs to a pre-registered client: give its oauth.client_id too.');
  }
  if (oauth.client_metadata_url !== undefined && !isHttpsUrl(oauth.client_metadata_url)) {
    throw badRequest(
      `oauth.client_metadata_url must be an https URL with a path, where Cairn's client metadata document is published (got "${oauth.client_metadata_url}").`,
    );
  }
}

/**
 * The stored form of OAuth settings, tidied as the app's form tidies them (trimmed, scopes once each, empty
 * parts dropped; nothing left: null), so that saving an unrelated edit compares equal and keeps the login.
 */
function storedOAuth(oauth: McpOAuthInput | McpOAuth | StoredMcpOAuth): StoredMcpOAuth | null {
  const clientId = oauth.client_id?.trim();
  const scopes = [...new Set(oauth.scopes ?? [])];
  const metadataUrl = oauth.client_metadata_url?.trim();
  const tidy: StoredMcpOAuth = {
    ...(clientId ? { client_id: clientId } : {}),
    ...(oauth.client_secret !== undefined ? { client_secret: stored(oauth.client_secret) } : {}),
    ...(scopes.length > 0 ? { scopes } : {}),
    ...(metadataUrl ? { client_metadata_url: metadataUrl } : {}),
  };
  return Object.keys(tidy).length > 0 ? tidy : null;
}

function storedValues(
  values: Record<string, McpValueInput | StoredMcpValue>,
): Record<string, StoredMcpValue> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, stored(value)]));
}

/** The stored form of a value (a secret's `has_value` from a view sent back is dropped). */
function stored(value: McpValueInput | StoredMcpValue | McpValue): StoredMcpValue {
  if (typeof value === 'string') return value;
  if ('secret' in value) return { secret: true };
  return { env: value.env };
}
