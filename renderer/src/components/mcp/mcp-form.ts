import {
  type CreateMcpServerRequest,
  MCP_BEARER_SECRET,
  MCP_DEFAULTS,
  MCP_ENV_NAME,
  MCP_HEADER_NAME,
  MCP_OAUTH_CLIENT_SECRET,
  type McpOAuth,
  type McpOAuthInput,
  type McpServer,
  type McpTransport,
  type McpValue,
  type McpValueInput,
  type SetMcpSecretsRequest,
} from '../../../../sidecar/src/protocol';
import '../../i18n/messages/mcp';

/** How a value is given: as typed, from the server's environment, or kept in the keychain. */
export type ValueKind = 'text' | 'env' | 'secret';

/** One env variable or header row of the form. */
export interface ValueRow {
  /** React's key for the row; not sent. */
  key: string;
  name: string;
  kind: ValueKind;
  /** text: the literal; env: the variable's name; secret: a new value typed (write-only, may be empty). */
  value: string;
  /** A secret of this name is saved on the server. */
  hasValue: boolean;
  /** The saved secret is to be removed (explicit; an empty field keeps it). */
  remove: boolean;
}

export interface BearerField {
  kind: 'none' | ValueKind;
  value: string;
  hasValue: boolean;
  remove: boolean;
}

/** How Cairn logs in to an HTTP server that asks for it (all optional: empty is Cairn's defaults). */
export interface OAuthFields {
  /** A client registered beforehand with the authorization server. */
  clientId: string;
  /** That client's secret, given like the bearer token; a secret is set as `oauth_client_secret`. */
  clientSecret: BearerField;
  /** Scopes separated by spaces or commas. */
  scopes: string;
  /** Where Cairn's client metadata document is published (an https URL with a path). */
  metadataUrl: string;
}

export interface McpFormState {
  name: string;
  transport: McpTransport;
  command: string;
  env: ValueRow[];
  url: string;
  headers: ValueRow[];
  bearer: BearerField;
  oauth: OAuthFields;
  startupTimeout: string;
  toolTimeout: string;
  /** Tool names, comma or newline separated; empty means every tool unless `allowNone`. */
  allowTools: string;
  /** An explicit empty allow-list: the server's tools are all withheld. */
  allowNone: boolean;
  denyTools: string;
  blockOnFailure: boolean;
}

export type McpFormField =
  | 'name'
  | 'command'
  | 'url'
  | 'env'
  | 'headers'
  | 'bearer'
  | 'oauthClientSecret'
  | 'oauthScopes'
  | 'oauthMetadataUrl'
  | 'startupTimeout'
  | 'toolTimeout';

/** What the form says to do: the config, then the secret values to set (string) or remove (null). */
export interface McpFormRequest {
  request: CreateMcpServerRequest;
  secrets: SetMcpSecretsRequest;
}

export type McpFormResult =
  | { ok: true; value: McpFormRequest }
  | { ok: false; errors: Partial<Record<McpFormField, FormError>> };

/** A validation problem as a message key and its parameters (the form translates it). */
export interface FormError {
  key: string;
  params?: Record<string, string>;
}

let rowCounter = 0;
export function newRow(kind: ValueKind = 'text'): ValueRow {
  rowCounter += 1;
  return { key: `row-${rowCounter}`, name: '', kind, value: '', hasValue: false, remove: false };
}

const NO_VALUE: BearerField = { kind: 'none', value: '', hasValue: false, remove: false };

export function emptyOAuth(): OAuthFields {
  return { clientId: '', clientSecret: { ...NO_VALUE }, scopes: '', metadataUrl: '' };
}

export function emptyForm(): McpFormState {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    env: [],
    url: '',
    headers: [],
    bearer: { ...NO_VALUE },
    oauth: emptyOAuth(),
    startupTimeout: String(MCP_DEFAULTS.startup_timeout_sec),
    toolTimeout: String(MCP_DEFAULTS.tool_timeout_sec),
    allowTools: '',
    allowNone: false,
    denyTools: '',
    blockOnFailure: false,
  };
}

function rowFrom(name: string, value: McpValue): ValueRow {
  const row = newRow();
  row.name = name;
  if (typeof value === 'string') return { ...row, kind: 'text', value };
  if ('env' in value) return { ...row, kind: 'env', value: value.env };
  // A secret's value is never sent to the page: the field starts empty, the badge says whether one is saved.
  return { ...row, kind: 'secret', value: '', hasValue: value.has_value };
}

/** An optional value (the bearer token, a client secret) as its field; a secret's value is never filled in. */
function optionalField(value: McpValue | null | undefined): BearerField {
  if (value === null || value === undefined) return { ...NO_VALUE };
  const { kind, value: text, hasValue } = rowFrom('', value);
  return { kind, value: text, hasValue, remove: false };
}

function oauthFromServer(oauth: McpOAuth | null): OAuthFields {
  if (oauth === null) return emptyOAuth();
  return {
    clientId: oauth.client_id ?? '',
    clientSecret: optionalField(oauth.client_secret),
    scopes: (oauth.scopes ?? []).join(' '),
    metadataUrl: oauth.client_metadata_url ?? '',
  };
}

/** The form for editing a saved server. */
export function formFromServer(server: McpServer): McpFormState {
  return {
    name: server.name,
    transport: server.transport,
    command: server.command ?? '',
    env: Object.entries(server.env).map(([name, value]) => rowFrom(name, value)),
    url: server.url ?? '',
    headers: Object.entries(server.headers).map(([name, value]) => rowFrom(name, value)),
    bearer: optionalField(server.bearer_token),
    oauth: oauthFromServer(server.oauth),
    startupTimeout: String(server.startup_timeout_sec),
    toolTimeout: String(server.tool_timeout_sec),
    allowTools: (server.allow_tools ?? []).join(', '),
    allowNone: server.allow_tools !== null && server.allow_tools.length === 0,
    denyTools: server.deny_tools.join(', '),
    blockOnFailure: server.block_on_failure,
  };
}

/** Tool names from a comma- or newline-separated field. */
export function splitNames(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** null: every tool; []: none; else the names. */
export function allowListOf(form: Pick<McpFormState, 'allowTools' | 'allowNone'>): string[] | null {
  if (form.allowNone) return [];
  const names = splitNames(form.allowTools);
  return names.length === 0 ? null : names;
}

function valueInput(kind: ValueKind, value: string): McpValueInput {
  if (kind === 'env') return { env: value.trim() };
  if (kind === 'secret') return { secret: true };
  return value;
}

/** A secret to set when typed, to remove when asked and saved; nothing (keep) otherwise. */
function secretChange(
  secrets: SetMcpSecretsRequest,
  name: string,
  field: { kind: string; value: string; hasValue: boolean; remove: boolean },
) {
  if (field.kind !== 'secret') return;
  if (field.value !== '') secrets[name] = field.value;
  else if (field.remove && field.hasValue) secrets[name] = null;
}

function rowsToRecord(
  rows: ValueRow[],
  pattern: RegExp,
  secrets: SetMcpSecretsRequest,
  caseInsensitive: boolean,
): { record: Record<string, McpValueInput> } | { error: FormError } {
  const record: Record<string, McpValueInput> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '' && row.value === '' && !row.hasValue) continue;
    if (!pattern.test(name)) return { error: { key: 'mcp.form.error.rowName', params: { name } } };
    const folded = caseInsensitive ? name.toLowerCase() : name;
    if (seen.has(folded)) return { error: { key: 'mcp.form.error.rowDuplicate', params: { name } } };
    seen.add(folded);
    if (row.kind === 'env' && !MCP_ENV_NAME.test(row.value.trim())) {
      return { error: { key: 'mcp.form.error.envRef', params: { name } } };
    }
    record[name] = valueInput(row.kind, row.value);
    secretChange(secrets, name, row);
  }
  return { record };
}

/** An OAuth scope token (RFC 6749 §3.3), as the server checks it. */
const OAUTH_SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,256}$/;

/** Scopes from a space- or comma-separated field, each once. */
export function splitScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((s) => s !== ''))];
}

function isHttpsUrlWithPath(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** The `oauth` part of the request (null when every field is empty: Cairn's defaults). */
function oauthRequest(
  fields: OAuthFields,
  secrets: SetMcpSecretsRequest,
  errors: Partial<Record<McpFormField, FormError>>,
): McpOAuthInput | null {
  const oauth: McpOAuthInput = {};
  const clientId = fields.clientId.trim();
  if (clientId !== '') oauth.client_id = clientId;
  const secret = fields.clientSecret;
  if (secret.kind !== 'none') {
    if (clientId === '') errors.oauthClientSecret = { key: 'mcp.form.error.oauthSecretNoClient' };
    else if (secret.kind === 'env' && !MCP_ENV_NAME.test(secret.value.trim()))
      errors.oauthClientSecret = { key: 'mcp.form.error.oauthSecretEnv' };
    else {
      oauth.client_secret = valueInput(secret.kind, secret.value);
      secretChange(secrets, MCP_OAUTH_CLIENT_SECRET, secret);
    }
  }
  const scopes = splitScopes(fields.scopes);
  const bad = scopes.find((scope) => !OAUTH_SCOPE.test(scope));
  if (bad !== undefined) errors.oauthScopes = { key: 'mcp.form.error.oauthScope', params: { scope: bad } };
  else if (scopes.length > 100) errors.oauthScopes = { key: 'mcp.form.error.oauthScopeCount' };
  else if (scopes.length > 0) oauth.scopes = scopes;
  const metadataUrl = fields.metadataUrl.trim();
  if (metadataUrl !== '' && !isHttpsUrlWithPath(metadataUrl))
    errors.oauthMetadataUrl = { key: 'mcp.form.error.oauthMetadataUrl' };
  else if (metadataUrl !== '') oauth.client_metadata_url = metadataUrl;
  return Object.keys(oauth).length > 0 ? oauth : null;
}

function timeout(text: string, max: number): number | null {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) && n > 0 && n <= max ? n : null;
}

/**
 * The create/update request and the secret changes the form describes. The fields of the other transport
 * are cleared, so a server switched from stdio to HTTP keeps no stale command line.
 */
export function requestFromForm(form: McpFormState): McpFormResult {
  const errors: Partial<Record<McpFormField, FormError>> = {};
  const secrets: SetMcpSecretsRequest = {};
  const name = form.name.trim();
  if (name === '') errors.name = { key: 'mcp.form.error.name' };

  const stdio = form.transport === 'stdio';
  if (stdio && form.command.trim() === '') errors.command = { key: 'mcp.form.error.command' };
  if (!stdio && form.url.trim() === '') errors.url = { key: 'mcp.form.error.url' };

  let env: Record<string, McpValueInput> = {};
  let headers: Record<string, McpValueInput> = {};
  if (stdio) {
    const result = rowsToRecord(form.env, MCP_ENV_NAME, secrets, false);
    if ('error' in result) errors.env = result.error;
    else env = result.record;
  } else {
    const result = rowsToRecord(form.headers, MCP_HEADER_NAME, secrets, true);
    if ('error' in result) errors.headers = result.error;
    else headers = result.record;
  }

  let bearer: McpValueInput | null = null;
  if (!stdio && form.bearer.kind !== 'none') {
    if (form.bearer.kind === 'env' && !MCP_ENV_NAME.test(form.bearer.value.trim())) {
      errors.bearer = { key: 'mcp.form.error.bearerEnv' };
    } else {
      bearer = valueInput(form.bearer.kind, form.bearer.value);
      secretChange(secrets, MCP_BEARER_SECRET, form.bearer);
    }
  }

  const oauth = stdio ? null : oauthRequest(form.oauth, secrets, errors);

  const startup = timeout(form.startupTimeout, 600);
  if (startup === null) errors.startupTimeout = { key: 'mcp.form.error.timeout', params: { max: '600' } };
  const tool = timeout(form.toolTimeout, 3600);
  if (tool === null) errors.toolTimeout = { key: 'mcp.form.error.timeout', params: { max: '3600' } };

  if (Object.keys(errors).length > 0 || startup === null || tool === null) return { ok: false, errors };
  return {
    ok: true,
    value: {
      request: {
        name,
        transport: form.transport,
        command: stdio ? form.command.trim() : null,
        env,
        url: stdio ? null : form.url.trim(),
        headers,
        bearer_token: bearer,
        oauth,
        allow_tools: allowListOf(form),
        deny_tools: splitNames(form.denyTools),
        startup_timeout_sec: startup,
        tool_timeout_sec: tool,
        block_on_failure: form.blockOnFailure,
      },
      secrets,
    },
  };
}

/** A one-line description of where a server runs: its command line or its URL. */
export function serverTarget(server: Pick<McpServer, 'transport' | 'command' | 'url'>): string {
  return (server.transport === 'stdio' ? server.command : server.url) ?? '';
}

/** Never let a typed secret reach the page through an error message that might echo it. */
export function withoutSecrets(message: string, secrets: SetMcpSecretsRequest): string {
  let out = message;
  for (const value of Object.values(secrets)) {
    if (value) out = out.split(value).join('•••');
  }
  return out;
}
