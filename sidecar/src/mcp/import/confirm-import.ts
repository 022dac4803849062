import {
  CreateMcpServerRequest,
  MCP_BEARER_SECRET,
  type McpImportCandidate,
  type McpImportPreview,
  type McpImportRequest,
  type McpValueInput,
} from '../../protocol/mcp';
import { formatCommandLine, parseCommandLine } from '../command-line';
import { McpConfigError } from '../mcp-config-error';
import { FILE_SECRETS } from './file-secrets';
import { substitutePlaceholders, wholePlaceholder } from './placeholders';
import type { ImportPreview } from './preview-import';
import { CANNOT_IMPORT } from './server-entry';

/** An answer to a question: a literal, `{"env":"VAR"}`, or `{"secret":"value"}` for the keychain. */
export type McpImportAnswer = NonNullable<NonNullable<McpImportRequest['confirm']>['answers']>[string];
export type McpImportAnswers = Readonly<Record<string, McpImportAnswer>>;

export interface AnsweredServer {
  server: CreateMcpServerRequest;
  /** Secret values to store in the keychain under the server, by the name its config marks `{"secret":true}`. */
  secrets: Array<{ name: string; value: string }>;
}

export interface ConfirmedImport {
  servers: CreateMcpServerRequest[];
  secrets: Array<{ server: string; name: string; value: string }>;
}

/**
 * Puts the user's answers in place of a candidate's placeholders. Literal answers go in as text wherever the
 * placeholder is; an env reference or a secret can only stand for a whole env, header or bearer-token value,
 * since a command line or URL has no place for them.
 */
export function applyAnswers(candidate: McpImportCandidate, answers: McpImportAnswers): AnsweredServer {
  const missing = new Set<string>();
  const secrets: Array<{ name: string; value: string }> = [];
  const serverName = candidate.name;

  const literal =
    (where: string) =>
    (id: string): string | undefined => {
      const answer = Object.hasOwn(answers, id) ? answers[id] : undefined;
      if (answer === undefined) return undefined;
      if (typeof answer === 'string') return answer;
      throw new McpConfigError(
        `The answer to ${id} for server "${serverName}" is ${'env' in answer ? 'an environment reference' : 'a secret'}, ` +
          `but ${id} is part of ${where}, which can only take text: give a literal value.`,
      );
    };
  const text = (value: string, where: string): string => {
    const result = substitutePlaceholders(value, literal(where));
    for (const id of result.missing) missing.add(id);
    return result.text;
  };
  /** An env, header or bearer value: a whole placeholder may become an env reference or a secret. */
  const value = (input: McpValueInput, secretName: string, where: string): McpValueInput => {
    if (typeof input !== 'string') return input;
    const whole = wholePlaceholder(input);
    const answer = whole !== null && Object.hasOwn(answers, whole.id) ? answers[whole.id] : undefined;
    if (answer !== undefined && typeof answer !== 'string') {
      if ('env' in answer) return { env: answer.env };
      secrets.push({ name: secretName, value: answer.secret });
      return { secret: true };
    }
    return text(input, where);
  };

  const server: CreateMcpServerRequest = { ...candidate.server };
  if (server.command !== undefined && server.command !== null) {
    const { program, args } = parseCommandLine(server.command);
    server.command = formatCommandLine(
      text(program, 'the command line'),
      args.map((a) => text(a, 'the command line')),
    );
  }
  if (server.url !== undefined && server.url !== null) server.url = text(server.url, 'the URL');
  if (server.env !== undefined) {
    server.env = Object.fromEntries(
      Object.entries(server.env).map(([name, v]) => [name, value(v, name, `the value of ${name}`)]),
    );
  }
  if (server.headers !== undefined) {
    server.headers = Object.fromEntries(
      Object.entries(server.headers).map(([name, v]) => [name, value(v, name, `the ${name} header`)]),
    );
  }
  if (server.bearer_token !== undefined && server.bearer_token !== null) {
    server.bearer_token = value(server.bearer_token, MCP_BEARER_SECRET, 'the bearer token');
  }
  if (missing.size > 0) {
    throw new McpConfigError(
      `Server "${serverName}" needs answers for ${[...missing].join(', ')}: give a value for each (or leave the server out).`,
    );
  }
  const parsed = CreateMcpServerRequest.safeParse(server);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new McpConfigError(
      `Server "${serverName}" would not be a valid configuration: ${issue?.path.join('.') || 'server'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return { server: parsed.data, secrets };
}

/**
 * Step two of an import: the servers the user picked, with their answers applied, ready to create, and the
 * secrets to store for them. Nothing is created here; any error leaves nothing half done.
 */
export function confirmImport(
  preview: ImportPreview | McpImportPreview,
  selectedNames: readonly string[],
  answers: McpImportAnswers = {},
): ConfirmedImport {
  const servers: CreateMcpServerRequest[] = [];
  const secrets: ConfirmedImport['secrets'] = [];
  const names = new Set<string>();
  for (const selected of new Set(selectedNames)) {
    const candidate = preview.candidates.find((c) => c.name === selected);
    if (candidate === undefined) {
      const available = preview.candidates.map((c) => `"${c.name}"`).join(', ') || 'none';
      throw new McpConfigError(`The file has no server named "${selected}". Its servers: ${available}.`);
    }
    const refusal = candidate.warnings.find((w) => w.startsWith(CANNOT_IMPORT));
    if (refusal !== undefined) throw new McpConfigError(`Server "${selected}": ${refusal}`);
    if (candidate.exists) {
      throw new McpConfigError(
        `Cairn already has a server named "${candidate.server.name}": rename or delete it first, or leave this one out.`,
      );
    }
    if (names.has(candidate.server.name)) {
      throw new McpConfigError(
        `Two selected servers would both be named "${candidate.server.name}": pick one.`,
      );
    }
    names.add(candidate.server.name);
    const answered = applyAnswers(candidate, answers);
    const serverSecrets = [
      ...((preview as ImportPreview)[FILE_SECRETS]?.get(selected) ?? []),
      ...answered.secrets,
    ];
    const unset = secretNames(answered.server).filter((name) => !serverSecrets.some((s) => s.name === name));
    if (unset.length > 0) {
      // The preview went through JSON somewhere and lost the file's values: only a fresh read has them.
      throw new McpConfigError(
        `Server "${selected}" has secrets (${unset.join(', ')}) whose values come from the file, and this preview no ` +
          'longer holds them: read the file again and confirm from that preview.',
      );
    }
    servers.push(answered.server);
    for (const secret of serverSecrets) secrets.push({ server: answered.server.name, ...secret });
  }
  return { servers, secrets };
}

/** The names a server's config marks `{"secret":true}`. */
function secretNames(server: CreateMcpServerRequest): string[] {
  const isSecret = (v: McpValueInput | null | undefined): boolean =>
    typeof v === 'object' && v !== null && 'secret' in v;
  return [
    ...Object.entries(server.env ?? {})
      .filter(([, v]) => isSecret(v))
      .map(([name]) => name),
    ...Object.entries(server.headers ?? {})
      .filter(([, v]) => isSecret(v))
      .map(([name]) => name),
    ...(isSecret(server.bearer_token) ? [MCP_BEARER_SECRET] : []),
  ];
}
