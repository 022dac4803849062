import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { CairnError } from '../errors';
import { CreateMcpServerRequest, type McpServer } from '../protocol';
import { BACKEND_FLAGS, withBackend } from './backend-session';
import { authorizeMcpLogin } from './mcp-authorize';
import type { HttpFrontDoor } from './serve-command';
import { printJson, printTable } from './table';
import { EXIT, UsageError } from './usage';

const ACTIONS = ['list', 'add', 'enable', 'disable', 'test', 'authorize', 'delete'];

/** `cairn config mcp list|add|enable|disable|test|authorize|delete`: the shapes of `/api/mcp/servers`. */
export async function mcpConfigCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const [action, ...rest] = args;
  if (!ACTIONS.includes(action ?? '')) {
    throw new UsageError(
      `Unknown action "${action ?? ''}": use list, add --file F, enable ID, disable ID, test ID, authorize ID or delete ID.`,
    );
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: { ...BACKEND_FLAGS, json: { type: 'boolean', default: false }, file: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const needsId = action !== 'list' && action !== 'add';
  const id = positionals[0];
  if (needsId ? positionals.length !== 1 : positionals.length > 0) {
    throw new UsageError(
      needsId ? `Expected \`cairn config mcp ${action} ID\`.` : `Unexpected "${positionals[0]}".`,
    );
  }
  if (action === 'add' && values.file === undefined) {
    throw new UsageError(
      'cairn config mcp add needs --file F: a JSON server config, or - for standard input.',
    );
  }
  const request = action === 'add' ? readServerFile(values.file!) : null;
  const out = process.stdout;
  return withBackend(values, http, async ({ client, local }) => {
    switch (action) {
      case 'list': {
        const servers = await client.listMcpServers();
        if (values.json) printJson(out, { servers });
        else if (servers.length === 0)
          out.write('No MCP servers yet. Add one with `cairn config mcp add --file F`.\n');
        else
          printTable(
            out,
            ['ID', 'ENABLED', 'NAME', 'TRANSPORT', 'RUNS'],
            servers.map((s) => [s.id, s.enabled ? 'yes' : 'no', s.name, s.transport, target(s)]),
          );
        return EXIT.ok;
      }
      case 'add': {
        const created = await client.createMcpServer(request!);
        out.write(
          `Added MCP server ${created.name} (${created.id}), disabled: enable it with \`cairn config mcp enable ${created.id}\`.\n`,
        );
        return EXIT.ok;
      }
      case 'enable':
      case 'disable': {
        const updated = await client.updateMcpServer(id!, { enabled: action === 'enable' });
        out.write(`MCP server ${updated.name} (${updated.id}) is ${action}d for sessions not yet run.\n`);
        return EXIT.ok;
      }
      case 'test': {
        const result = await client.testMcpServer(id!);
        if (values.json) printJson(out, result);
        else {
          const info = result.server_info
            ? `${result.server_info.name} ${result.server_info.version}`
            : 'the server';
          out.write(
            `Connected to ${info}: ${result.tools.length} tool${result.tools.length === 1 ? '' : 's'}.\n`,
          );
          for (const tool of result.tools)
            out.write(
              `  ${tool.allowed ? ' ' : '✗'} ${tool.name}${tool.description ? ` — ${tool.description}` : ''}\n`,
            );
        }
        return EXIT.ok;
      }
      case 'authorize':
        return authorizeMcpLogin(client, id!, { json: values.json, out, err: process.stderr, local });
      default: {
        await client.deleteMcpServer(id!);
        out.write(`Deleted MCP server ${id}.\n`);
        return EXIT.ok;
      }
    }
  });
}

/** What the server runs or connects to: the command line of a stdio server, else its URL. */
function target(server: McpServer): string {
  return server.transport === 'stdio' ? (server.command ?? '') : (server.url ?? '');
}

/** The server config from a JSON file (or standard input), checked before anything is opened. */
function readServerFile(file: string): CreateMcpServerRequest {
  let text: string;
  try {
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CairnError('bad_request', `Cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CairnError('bad_request', `${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = CreateMcpServerRequest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new CairnError(
      'bad_request',
      `${file} is not an MCP server config (the body of POST /api/mcp/servers): ${where}${issue?.message}`,
    );
  }
  return parsed.data;
}
