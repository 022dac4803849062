import { parseArgs } from 'node:util';
import { BACKEND_FLAGS, withBackend } from './backend-session';
import type { HttpFrontDoor } from './serve-command';
import { printJson, printTable, shortTime } from './table';
import { EXIT, UsageError } from './usage';

/** `cairn projects list [--json]` and `cairn sessions list [--project ID] [--json]`. */
export async function listCommand(
  what: 'projects' | 'sessions',
  args: string[],
  http: HttpFrontDoor,
): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'list') throw new UsageError(`Expected \`cairn ${what} list\` (got "${action ?? ''}").`);
  const { values } = parseArgs({
    args: rest,
    options: {
      ...BACKEND_FLAGS,
      json: { type: 'boolean', default: false },
      ...(what === 'sessions' ? { project: { type: 'string' } } : {}),
    } as const,
    strict: true,
    allowPositionals: false,
  });
  const out = process.stdout;
  return withBackend(values, http, async ({ client }) => {
    if (what === 'projects') {
      const projects = await client.listProjects();
      if (values.json) printJson(out, { projects });
      else if (projects.length === 0) out.write('No projects yet. `cairn chat --workspace DIR` opens one.\n');
      else
        printTable(
          out,
          ['ID', 'NAME', 'LAST OPENED', 'PATH'],
          projects.map((p) => [p.id, p.name, shortTime(p.last_opened_at), p.path]),
        );
      return EXIT.ok;
    }
    const project = (values as { project?: string }).project;
    const sessions = await client.listSessions(project);
    if (values.json) printJson(out, { sessions });
    else if (sessions.length === 0) out.write('No sessions yet. `cairn chat` starts one.\n');
    else
      printTable(
        out,
        ['ID', 'UPDATED', 'MODE', 'PROJECT', 'TITLE'],
        sessions.map((s) => [s.id, shortTime(s.updated_at), s.mode, s.project_id ?? '-', s.title]),
      );
    return EXIT.ok;
  });
}
