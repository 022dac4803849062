import * as z from 'zod/mini';

/** Wire shapes of MCP connections: server configs, secrets, tests, imports and a session's servers. */

export const McpTransport = z.enum(['stdio', 'streamable_http']);
export type McpTransport = z.infer<typeof McpTransport>;

/** Environment variable names (POSIX-ish; Windows allows more, but these are what configs use). */
export const MCP_ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** HTTP header names (RFC 9110 token). */
export const MCP_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

/**
 * A value given in a request: a literal string, a variable of the sidecar's environment (resolved where the
 * server runs), or a secret kept in the OS keychain (its value set through PUT …/secrets).
 */
export const McpValueInput = z.union([
  z.string().check(z.maxLength(32_768)),
  z.strictObject({ env: z.string().check(z.regex(MCP_ENV_NAME, 'an environment variable name')) }),
  z.strictObject({ secret: z.literal(true) }),
]);
export type McpValueInput = z.infer<typeof McpValueInput>;

/** A value as the API shows it: literals as they are, secrets only as whether one is saved. */
export const McpValue = z.union([
  z.string(),
  z.object({ env: z.string() }),
  z.object({ secret: z.literal(true), has_value: z.boolean() }),
]);
export type McpValue = z.infer<typeof McpValue>;

/** The name the bearer token's secret goes by in PUT …/secrets. */
export const MCP_BEARER_SECRET = 'bearer_token';
/** The name a pre-registered OAuth client's secret goes by in PUT …/secrets. */
export const MCP_OAUTH_CLIENT_SECRET = 'oauth_client_secret';

/** An OAuth scope token (RFC 6749 §3.3: printable ASCII without space, quote or backslash). */
const OAuthScope = z
  .string()
  .check(
    z.regex(
      /^[\x21\x23-\x5B\x5D-\x7E]{1,256}$/,
      'a scope: printable ASCII without spaces, quotes or backslashes',
    ),
  );

/**
 * How Cairn logs in to a Streamable HTTP server that answers 401 (MCP authorization, OAuth 2.1). Every field
 * is optional: without a client id Cairn uses the client metadata URL (when the authorization server takes
 * one) or registers itself (RFC 7591); without scopes it asks for what the server names.
 */
export const McpOAuthInput = z.strictObject({
  /** A client registered beforehand with the authorization server. */
  client_id: z.optional(z.string().check(z.minLength(1), z.maxLength(2_048))),
  /** That client's secret (confidential clients); a secret is set through PUT …/secrets as `oauth_client_secret`. */
  client_secret: z.optional(McpValueInput),
  scopes: z.optional(z.array(OAuthScope).check(z.maxLength(100))),
  /** An https URL with a path, where Cairn's client metadata document is published (client ID metadata documents). */
  client_metadata_url: z.optional(z.string().check(z.maxLength(2_048))),
});
export type McpOAuthInput = z.infer<typeof McpOAuthInput>;

/** The OAuth settings as the API shows them (the client secret as whether one is saved). */
export const McpOAuth = z.object({
  client_id: z.optional(z.string()),
  client_secret: z.optional(McpValue),
  scopes: z.optional(z.array(z.string())),
  client_metadata_url: z.optional(z.string()),
});
export type McpOAuth = z.infer<typeof McpOAuth>;

/** Where the tokens of a server's login are kept: the OS keychain, or this process's memory where none exists. */
export const McpTokenStorage = z.enum(['keychain', 'memory']);
export type McpTokenStorage = z.infer<typeof McpTokenStorage>;

export const MCP_LIMITS = {
  toolsPerServer: 256,
  catalogBytes: 1024 * 1024,
  resultBytes: 8 * 1024 * 1024,
  /** Anthropic's limit on a tool's name. */
  toolNameChars: 64,
  /** A log message's data as JSON, beyond which it is cut (and marked) before it reaches the journal. */
  logDataChars: 4 * 1024,
  /** A progress notification's message, beyond which it is cut. */
  progressMessageChars: 1_000,
} as const;

const ToolNameList = z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.maxLength(1_000));

const serverFields = {
  name: z.string().check(z.trim(), z.minLength(1, 'name is required'), z.maxLength(100)),
  transport: McpTransport,
  /** stdio: one command line, POSIX-shell-like quoting (single and double quotes, backslash escapes). */
  command: z.nullable(z.string().check(z.maxLength(32_768))),
  env: z.record(
    z.string().check(z.regex(MCP_ENV_NAME, 'environment variable names are letters, digits and _')),
    McpValueInput,
  ),
  /** streamable_http: the endpoint; https, or plain http to this machine only. */
  url: z.nullable(z.string().check(z.maxLength(4_096))),
  headers: z.record(z.string().check(z.regex(MCP_HEADER_NAME, 'a header name')), McpValueInput),
  bearer_token: z.nullable(McpValueInput),
  /** streamable_http: how to log in when the server asks for it (null: Cairn's defaults). */
  oauth: z.nullable(McpOAuthInput),
  /** null: every tool; [] none; deny wins over allow. */
  allow_tools: z.nullable(ToolNameList),
  deny_tools: ToolNameList,
  startup_timeout_sec: z.number().check(z.positive(), z.lte(600)),
  tool_timeout_sec: z.number().check(z.positive(), z.lte(3_600)),
  /** A session does not run while this server fails to connect. */
  block_on_failure: z.boolean(),
};

export const McpServer = z.object({
  id: z.string(),
  enabled: z.boolean(),
  name: z.string(),
  transport: McpTransport,
  command: z.nullable(z.string()),
  env: z.record(z.string(), McpValue),
  url: z.nullable(z.string()),
  headers: z.record(z.string(), McpValue),
  bearer_token: z.nullable(McpValue),
  oauth: z.nullable(McpOAuth),
  allow_tools: z.nullable(z.array(z.string())),
  deny_tools: z.array(z.string()),
  startup_timeout_sec: z.number(),
  tool_timeout_sec: z.number(),
  block_on_failure: z.boolean(),
  /**
   * The OAuth redirect URI Cairn gives the authorization server (`<base URL>/api/mcp/oauth/callback`); null for
   * stdio servers, and where logins are refused (a remote server without --public-url).
   */
  redirect_uri: z.nullable(z.string()),
  /** A login waiting for the user: open it in a browser. Null when none is pending. */
  authorization_url: z.nullable(z.string()),
  /** Whether Cairn holds tokens of a login to this server. */
  logged_in: z.boolean(),
  /** Where those tokens are kept. */
  token_storage: McpTokenStorage,
  created_at: z.string(),
  updated_at: z.string(),
});
export type McpServer = z.infer<typeof McpServer>;

export const MCP_DEFAULTS = {
  startup_timeout_sec: 30,
  tool_timeout_sec: 120,
} as const;

/** A new server; it starts disabled. Omitted fields take their defaults. */
export const CreateMcpServerRequest = z.strictObject({
  name: serverFields.name,
  transport: serverFields.transport,
  command: z.optional(serverFields.command),
  env: z.optional(serverFields.env),
  url: z.optional(serverFields.url),
  headers: z.optional(serverFields.headers),
  bearer_token: z.optional(serverFields.bearer_token),
  oauth: z.optional(serverFields.oauth),
  allow_tools: z.optional(serverFields.allow_tools),
  deny_tools: z.optional(serverFields.deny_tools),
  startup_timeout_sec: z.optional(serverFields.startup_timeout_sec),
  tool_timeout_sec: z.optional(serverFields.tool_timeout_sec),
  block_on_failure: z.optional(serverFields.block_on_failure),
});
export type CreateMcpServerRequest = z.infer<typeof CreateMcpServerRequest>;

/** A partial update; `enabled` switches the server on or off for sessions not yet run. */
export const UpdateMcpServerRequest = z.extend(z.partial(CreateMcpServerRequest), {
  enabled: z.optional(z.boolean()),
});
export type UpdateMcpServerRequest = z.infer<typeof UpdateMcpServerRequest>;

/** What POST /api/mcp/servers/{id}/authorize answers: where the user logs in. */
export const McpAuthorizeResult = z.object({ authorization_url: z.string() });
export type McpAuthorizeResult = z.infer<typeof McpAuthorizeResult>;

/**
 * Secret values by name (an env variable or header marked `{"secret":true}`, `bearer_token`, or
 * `oauth_client_secret`): a string
 * sets it, an empty string keeps the saved value (an edit form's untouched field), null removes it.
 * Write-only: no route returns a secret.
 */
export const SetMcpSecretsRequest = z.record(
  z.string().check(z.minLength(1), z.maxLength(128)),
  z.nullable(z.string().check(z.maxLength(32_768))),
);
export type SetMcpSecretsRequest = z.infer<typeof SetMcpSecretsRequest>;

export const McpServerList = z.object({ servers: z.array(McpServer) });
export type McpServerList = z.infer<typeof McpServerList>;

/** Where a value came from, for the test report (never the value of an env reference or a secret). */
export const McpValueSource = z.enum(['literal', 'env', 'secret']);

export const McpToolInfo = z.object({
  name: z.string(),
  description: z.nullable(z.string()),
  /** Whether the allow/deny lists let the agent have it. */
  allowed: z.boolean(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

/** "Test connection": initialize and tools/list only, with what the server was started with. */
export const McpTestResult = z.object({
  ok: z.literal(true),
  server_info: z.nullable(z.object({ name: z.string(), version: z.string() })),
  /** stdio: the program and arguments spawned (no shell), and the working directory. */
  program: z.nullable(z.string()),
  args: z.array(z.string()),
  cwd: z.nullable(z.string()),
  /** The environment given to the server: names and where each value came from. */
  env: z.record(z.string(), McpValueSource),
  tools: z.array(McpToolInfo),
});
export type McpTestResult = z.infer<typeof McpTestResult>;

// ---- import from other apps' configs ----

export const McpImportSource = z.enum(['claude_desktop', 'cursor', 'vscode', 'claude_code']);
export type McpImportSource = z.infer<typeof McpImportSource>;

/** A placeholder the importer cannot resolve by itself: the user gives its value (or an env reference). */
export const McpImportQuestion = z.object({
  /** `input:token`, `env:HOME` or `workspaceFolder`, as written in the file. */
  id: z.string(),
  description: z.nullable(z.string()),
  /** VS Code's `password: true` inputs: the answer should become a secret. */
  password: z.boolean(),
  /** The value the file suggests (`${VAR:-default}`), if any. */
  default: z.nullable(z.string()),
});
export type McpImportQuestion = z.infer<typeof McpImportQuestion>;

export const McpImportCandidate = z.object({
  /** The server's name in the file. */
  name: z.string(),
  /** The config as it would be created (placeholders still in place where a question is open). */
  server: CreateMcpServerRequest,
  /** Placeholders this server needs answered before it can be imported. */
  questions: z.array(z.string()),
  /** What could not be carried over (an unsupported transport, an unknown field), in words. */
  warnings: z.array(z.string()),
  /** A server of this name exists already. */
  exists: z.boolean(),
});
export type McpImportCandidate = z.infer<typeof McpImportCandidate>;

/**
 * Step one reads the file (its usual place, `path`, or `content` pasted) and previews; step two sends the
 * same with `confirm` naming the servers to import and answering their questions.
 */
export const McpImportRequest = z.strictObject({
  source: McpImportSource,
  /** For project-level files (VS Code's `.vscode/mcp.json`, Claude Code's `.mcp.json`, Cursor's `.cursor/mcp.json`). */
  project_id: z.optional(z.string()),
  path: z.optional(z.string().check(z.minLength(1), z.maxLength(4_096))),
  content: z.optional(z.string().check(z.maxLength(1_048_576))),
  confirm: z.optional(
    z.strictObject({
      servers: z
        .array(z.string().check(z.minLength(1)))
        .check(z.minLength(1, 'name at least one server to import')),
      /** Answers by question id: a literal, or `{"env":"VAR"}`, or `{"secret":"value"}` kept in the keychain. */
      answers: z.optional(
        z.record(
          z.string(),
          z.union([
            z.string().check(z.maxLength(32_768)),
            z.strictObject({ env: z.string().check(z.regex(MCP_ENV_NAME)) }),
            z.strictObject({ secret: z.string().check(z.minLength(1), z.maxLength(32_768)) }),
          ]),
        ),
      ),
    }),
  ),
});
export type McpImportRequest = z.infer<typeof McpImportRequest>;

export const McpImportPreview = z.object({
  /** The file read. */
  path: z.nullable(z.string()),
  candidates: z.array(McpImportCandidate),
  questions: z.array(McpImportQuestion),
});
export type McpImportPreview = z.infer<typeof McpImportPreview>;

export const McpImportResult = z.object({ imported: z.array(McpServer) });
export type McpImportResult = z.infer<typeof McpImportResult>;

// ---- a session's servers ----

export const McpConnectionState = z.enum([
  'not_started',
  'connecting',
  'connected',
  /** The server needs the user to log in (OAuth): its `authorization_url` says where. */
  'auth_required',
  'failed',
  'crashed',
  'stopped',
]);
export type McpConnectionState = z.infer<typeof McpConnectionState>;

/** MCP's logging levels (RFC 5424's severities), least severe first. */
export const McpLogLevel = z.enum([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
export type McpLogLevel = z.infer<typeof McpLogLevel>;

export const McpSessionTool = z.object({
  /** The name the agent calls it by (unique in the session, at most 64 characters). */
  agent_name: z.string(),
  /** The server's own name for it. */
  name: z.string(),
  description: z.nullable(z.string()),
  available: z.boolean(),
});
export type McpSessionTool = z.infer<typeof McpSessionTool>;

export const McpSessionServer = z.object({
  server_id: z.string(),
  name: z.string(),
  transport: McpTransport,
  state: McpConnectionState,
  /** Why it failed or crashed, in words. */
  error: z.nullable(z.string()),
  /** Where the user logs in, while the state is `auth_required`; null otherwise. */
  authorization_url: z.nullable(z.string()),
  tools: z.array(McpSessionTool),
});
export type McpSessionServer = z.infer<typeof McpSessionServer>;

export const McpSessionStatus = z.object({
  /** When the session took its snapshot of the enabled servers (its first run); null before. */
  snapshot_at: z.nullable(z.string()),
  /** A reset waits for the next message: the current configuration is loaded then. */
  reset_pending: z.boolean(),
  servers: z.array(McpSessionServer),
});
export type McpSessionStatus = z.infer<typeof McpSessionStatus>;
