import {
  type CreateMcpServerRequest,
  MCP_BEARER_SECRET,
  MCP_ENV_NAME,
  MCP_HEADER_NAME,
  type McpImportCandidate,
  type McpValueInput,
} from '../../protocol/mcp';
import { formatCommandLine } from '../command-line';
import { type FileSecret, looksLikeCredential } from './file-secrets';
import { type ImportFormat, isObject } from './import-format';
import { type EnvRefSyntax, findPlaceholders, type PlaceholderUse, wholeEnvReference } from './placeholders';

/** A candidate that cannot be imported says so in its first warning, which starts with this. */
export const CANNOT_IMPORT = 'Cannot be imported: ';

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'streamable_http']);
const KNOWN_FIELDS = new Set([
  'type',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'disabled',
]);

export interface BuiltCandidate {
  candidate: Omit<McpImportCandidate, 'exists'>;
  /** Every placeholder use left in the server, for the preview's questions. */
  uses: PlaceholderUse[];
  /** Literal credentials taken out of the config (it shows `{"secret":true}` in their place). */
  fileSecrets: FileSecret[];
}

/** A value that is exactly one env reference in the file's syntax becomes `{"env":…}`; anything else stays text. */
function mapValue(value: string, syntax: EnvRefSyntax): McpValueInput {
  const name = wholeEnvReference(value, syntax);
  return name === null ? value : { env: name };
}

/** Env and header values: strings as they are, numbers and booleans as text, anything else refused. */
function stringValues(
  field: string,
  value: unknown,
  validName: RegExp,
  warnings: string[],
): Array<[string, string]> | string {
  if (value === undefined) return [];
  if (!isObject(value)) return `"${field}" should be an object of names and values.`;
  const out: Array<[string, string]> = [];
  for (const [name, v] of Object.entries(value)) {
    if (!validName.test(name)) {
      warnings.push(`"${field}" entry "${name}" was left out: that name cannot be used here.`);
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      out.push([name, String(v)]);
    } else {
      return `"${field}.${name}" should be text.`;
    }
  }
  return out;
}

/** Turns one server entry of a file into what Cairn would create, with what could not be carried over. */
export function buildCandidate(fileName: string, entry: unknown, format: ImportFormat): BuiltCandidate {
  const warnings: string[] = [];
  const name = fileName.trim().slice(0, 100) || 'Imported server';
  if (name !== fileName) warnings.push(`The name was shortened or trimmed to "${name}".`);
  const refuse = (why: string): BuiltCandidate => ({
    candidate: {
      name: fileName,
      server: { name, transport: 'stdio', command: null, env: {} },
      questions: [],
      warnings: [CANNOT_IMPORT + why, ...warnings],
    },
    uses: [],
    fileSecrets: [],
  });
  if (!isObject(entry)) return refuse('the entry is not an object.');

  const type = entry.type;
  if (type !== undefined && typeof type !== 'string') return refuse('"type" should be text.');
  const isSse = type === 'sse';
  const isHttp =
    isSse ||
    (type !== undefined && HTTP_TYPES.has(type)) ||
    (type === undefined && entry.command === undefined && entry.url !== undefined);
  if (type !== undefined && type !== 'stdio' && !isHttp) {
    return refuse(`the transport "${type}" is unknown; Cairn speaks stdio and Streamable HTTP.`);
  }
  for (const key of Object.keys(entry)) {
    if (!KNOWN_FIELDS.has(key)) warnings.push(`The field "${key}" is not carried over.`);
  }
  if (entry.disabled === true) {
    warnings.push(`It is disabled in ${format.app}. (Imported servers start disabled in Cairn anyway.)`);
  }

  let server: CreateMcpServerRequest;
  if (isHttp) {
    if (typeof entry.url !== 'string' || entry.url.trim() === '')
      return refuse('an HTTP server needs its "url".');
    if (isSse) {
      warnings.push(
        'It uses the older SSE transport, which Cairn does not speak; Cairn uses Streamable HTTP. Many servers ' +
          'offer both (often at /mcp instead of /sse): change the URL after import.',
      );
    }
    if (entry.command !== undefined || entry.args !== undefined || entry.env !== undefined) {
      warnings.push('Its command, args and env are ignored: it is an HTTP server.');
    }
    const headerList = stringValues('headers', entry.headers, MCP_HEADER_NAME, warnings);
    if (typeof headerList === 'string') return refuse(headerList);
    const headers: Record<string, McpValueInput> = {};
    let bearer: McpValueInput | null = null;
    for (const [header, value] of headerList) {
      // Cairn keeps a bearer token apart so it can be a secret; "Bearer ${input:token}" is the common case.
      const token = /^Bearer\s+(\S(?:.*\S)?)$/is.exec(value);
      if (header.toLowerCase() === 'authorization' && token !== null && bearer === null) {
        bearer = mapValue(token[1]!, format.envRefs);
      } else {
        headers[header] = mapValue(value, format.envRefs);
      }
    }
    server = { name, transport: 'streamable_http', url: entry.url.trim(), headers };
    if (bearer !== null) server.bearer_token = bearer;
  } else {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') {
      return refuse('a stdio server needs its "command".');
    }
    const args = entry.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      return refuse('"args" should be a list of text arguments.');
    }
    if (/\s/.test(entry.command.trim()) && args.length === 0) {
      warnings.push(
        'Its "command" contains spaces and there are no "args": it is taken as one program name. If it is a ' +
          'whole command line, edit it after import.',
      );
    }
    if (entry.url !== undefined) warnings.push('Its "url" is ignored: it is a stdio server.');
    if (entry.envFile !== undefined) {
      warnings.push(
        'Its "envFile" is not supported: add those variables to the server\'s environment after import.',
      );
    }
    if (entry.cwd !== undefined) {
      warnings.push('Its "cwd" is not carried over: Cairn runs servers in the session\'s project folder.');
    }
    const envList = stringValues('env', entry.env, MCP_ENV_NAME, warnings);
    if (typeof envList === 'string') return refuse(envList);
    const env: Record<string, McpValueInput> = {};
    for (const [variable, value] of envList) env[variable] = mapValue(value, format.envRefs);
    server = {
      name,
      transport: 'stdio',
      command: formatCommandLine(entry.command.trim(), args as string[]),
      env,
    };
  }

  const uses = serverTexts(server, entry).flatMap(findPlaceholders);
  const fileSecrets = takeLiteralCredentials(server, warnings);
  return {
    candidate: { name: fileName, server, questions: [...new Set(uses.map((u) => u.id))], warnings },
    uses,
    fileSecrets,
  };
}

/** The texts of a server that may hold placeholders: the file's own words for the command, then the rest. */
function serverTexts(server: CreateMcpServerRequest, entry: Record<string, unknown>): string[] {
  const texts: string[] = [];
  if (server.transport === 'stdio') {
    texts.push(String(entry.command), ...((entry.args as string[] | undefined) ?? []));
  } else {
    texts.push(server.url ?? '');
  }
  const values = [...Object.values(server.env ?? {}), ...Object.values(server.headers ?? {})];
  if (server.bearer_token !== undefined && server.bearer_token !== null) values.push(server.bearer_token);
  for (const value of values) if (typeof value === 'string') texts.push(value);
  return texts;
}

/** Moves literal credentials out of the config, to be kept in the keychain on import. */
function takeLiteralCredentials(server: CreateMcpServerRequest, warnings: string[]): FileSecret[] {
  const taken: FileSecret[] = [];
  const isLiteral = (v: McpValueInput | null | undefined): v is string =>
    typeof v === 'string' && v !== '' && findPlaceholders(v).length === 0;
  const take = (values: Record<string, McpValueInput> | undefined, kind: 'env' | 'header'): void => {
    for (const [name, v] of Object.entries(values ?? {})) {
      if (!isLiteral(v) || !looksLikeCredential(kind, name)) continue;
      taken.push({ name, value: v });
      values![name] = { secret: true };
      warnings.push(
        `${kind === 'env' ? 'The variable' : 'The header'} ${name} holds a credential written in the file: it will be kept in the keychain, not in Cairn's database.`,
      );
    }
  };
  take(server.env, 'env');
  take(server.headers, 'header');
  if (isLiteral(server.bearer_token)) {
    taken.push({ name: MCP_BEARER_SECRET, value: server.bearer_token });
    server.bearer_token = { secret: true };
    warnings.push(
      "The bearer token is written in the file: it will be kept in the keychain, not in Cairn's database.",
    );
  }
  return taken;
}
