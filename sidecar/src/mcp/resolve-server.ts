import fs from 'node:fs';
import { CairnError } from '../errors';
import { MCP_BEARER_SECRET, MCP_OAUTH_CLIENT_SECRET } from '../protocol';
import type { Keychain } from '../secrets/keychain';
import { SECRET_ENV_NAMES } from '../secrets/known-secrets';
import type { McpServerConfig, StoredMcpValue } from '../store/mcp-servers-repo';
import { parseCommandLine } from './command-line';
import type { ResolvedMcpServer } from './mcp-connection';
import type { OAuthClientConfig } from './oauth/server-oauth';
import { windowsLauncher } from './windows-launcher';

export type ValueSource = 'literal' | 'env' | 'secret';

export interface ResolveOptions {
  serverId: string;
  /** Where a stdio server runs: the session's project folder, or a scratch folder of its own. */
  cwd: string;
  /** The environment a child starts from: Cairn's own without its secrets (tools/child-env). */
  baseEnv: NodeJS.ProcessEnv;
  /** What `{"env":"VAR"}` references read: the sidecar's own environment. */
  lookupEnv: NodeJS.ProcessEnv;
  keychain: Keychain;
  /** The keychain account of a server's secret. */
  secretAccount: (serverId: string, name: string) => string;
  platform?: NodeJS.Platform;
  /** How the Windows launcher checks for a file (tests give their own). */
  fileExists?: (file: string) => boolean;
}

export interface ResolvedWithReport {
  server: ResolvedMcpServer;
  /** The server's own env variables and where each value came from (for "Test connection"). */
  envSources: Record<string, ValueSource>;
  /**
   * How it logs in with OAuth when it answers 401: streamable_http without a bearer token or an
   * Authorization header of the user's (those are the user's own way in); null otherwise.
   */
  oauthClient: OAuthClientConfig | null;
}

/**
 * A stored config made ready to start: the command line split into program and arguments (through cmd.exe
 * for a Windows .cmd/.bat launcher), env references and secrets resolved. A reference to a variable that
 * is not set, or a secret without a value, is an error naming it rather than an empty value.
 */
export async function resolveServer(
  config: McpServerConfig,
  opts: ResolveOptions,
): Promise<ResolvedWithReport> {
  const resolveValue = async (name: string, value: StoredMcpValue, where: string): Promise<string> => {
    if (typeof value === 'string') return value;
    if ('env' in value) {
      if (isCairnSecretName(value.env)) {
        throw new CairnError(
          'bad_request',
          `${where} of MCP server "${config.name}" refers to ${value.env}, which holds one of Cairn's own secrets; Cairn does not pass those to other programs. Store the value as a secret of this server instead.`,
        );
      }
      const found = opts.lookupEnv[value.env];
      if (found === undefined) {
        throw new CairnError(
          'bad_request',
          `${where} of MCP server "${config.name}" refers to the environment variable ${value.env}, which is not set where Cairn runs: set it, or change the value.`,
        );
      }
      return found;
    }
    let secret: string | null;
    try {
      secret = await opts.keychain.get(opts.secretAccount(opts.serverId, name));
    } catch (err) {
      throw new CairnError(
        'keychain_unavailable',
        `${where} of MCP server "${config.name}" is a secret, but no OS keychain is available: use an environment reference instead.`,
        { cause: err },
      );
    }
    if (secret === null) {
      throw new CairnError(
        'bad_request',
        `${where} of MCP server "${config.name}" is a secret without a value: set it in the server's settings (PUT /api/mcp/servers/${opts.serverId}/secrets).`,
      );
    }
    return secret;
  };
  const sourceOf = (value: StoredMcpValue): ValueSource =>
    typeof value === 'string' ? 'literal' : 'env' in value ? 'env' : 'secret';

  const envSources: Record<string, ValueSource> = {};
  const ownEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.env)) {
    ownEnv[name] = await resolveValue(name, value, `The env variable ${name}`);
    envSources[name] = sourceOf(value);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers)) {
    headers[name] = await resolveValue(name, value, `The header ${name}`);
  }
  if (config.bearer_token !== null) {
    headers.Authorization = `Bearer ${await resolveValue(MCP_BEARER_SECRET, config.bearer_token, 'The bearer token')}`;
  }

  let oauthClient: OAuthClientConfig | null = null;
  const ownAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (config.transport === 'streamable_http' && !ownAuthorization) {
    const oauth = config.oauth ?? {};
    oauthClient = {
      clientId: oauth.client_id ?? null,
      clientSecret:
        oauth.client_secret === undefined
          ? null
          : await resolveValue(MCP_OAUTH_CLIENT_SECRET, oauth.client_secret, 'The OAuth client secret'),
      scopes: oauth.scopes ?? null,
      clientMetadataUrl: oauth.client_metadata_url ?? null,
    };
  }

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(opts.baseEnv)) if (value !== undefined) env[name] = value;
  Object.assign(env, ownEnv);

  let program: string | null = null;
  let args: string[] = [];
  let windowsVerbatimArguments = false;
  if (config.transport === 'stdio') {
    const parsed = parseCommandLine(config.command ?? '');
    if ((opts.platform ?? process.platform) === 'win32') {
      const launch = windowsLauncher(
        parsed.program,
        parsed.args,
        env,
        opts.fileExists ?? ((file) => fs.existsSync(file)),
      );
      program = launch.file;
      args = launch.args;
      windowsVerbatimArguments = launch.windowsVerbatimArguments;
    } else {
      program = parsed.program;
      args = parsed.args;
    }
  }
  return {
    server: {
      id: opts.serverId,
      name: config.name,
      transport: config.transport,
      program,
      args,
      cwd: config.transport === 'stdio' ? opts.cwd : null,
      env: config.transport === 'stdio' ? env : {},
      windowsVerbatimArguments,
      url: config.url,
      headers,
      startupTimeoutMs: config.startup_timeout_sec * 1000,
      toolTimeoutMs: config.tool_timeout_sec * 1000,
      allowTools: config.allow_tools,
      denyTools: config.deny_tools,
    },
    envSources,
    oauthClient,
  };
}

/** Cairn's own tokens and keys, and its CAIRN_* settings: never handed to a server through a reference. */
function isCairnSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.startsWith('CAIRN_') || SECRET_ENV_NAMES.some((secret) => secret === upper);
}
