import { parseArgs } from 'node:util';
import type { MatchRange, SearchHit } from '../protocol';
import { BACKEND_FLAGS, withBackend } from './backend-session';
import type { HttpFrontDoor } from './serve-command';
import { printJson } from './table';
import { EXIT, parseIntFlag, UsageError } from './usage';

const KIND_LABEL: Record<SearchHit['kind'], string> = {
  message: 'message',
  tool_call: 'tool call',
  kernel_cell: 'kernel cell',
};

/** `cairn search QUERY [--project ID] [--session ID] [--limit N] [--before CURSOR] [--json]`. */
export async function searchCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...BACKEND_FLAGS,
      project: { type: 'string' },
      session: { type: 'string' },
      limit: { type: 'string' },
      before: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const q = positionals.join(' ').trim();
  if (!q) throw new UsageError('cairn search needs the words to find: cairn search QUERY.');
  const limit = parseIntFlag('limit', values.limit);
  if (limit !== undefined && (limit < 1 || limit > 100))
    throw new UsageError('--limit must be between 1 and 100.');
  return withBackend(values, http, async ({ client }) => {
    const result = await client.search({
      q,
      ...(values.project ? { project_id: values.project } : {}),
      ...(values.session ? { session_id: values.session } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(values.before ? { before: values.before } : {}),
    });
    if (values.json) {
      printJson(process.stdout, result);
      return EXIT.ok;
    }
    if (result.hits.length === 0) {
      process.stdout.write(`Nothing found for "${q}".\n`);
      return EXIT.ok;
    }
    const tty = process.stdout.isTTY === true;
    for (const hit of result.hits) {
      const turn = hit.turn_id === null ? 'outside turns' : `turn ${hit.turn_id}`;
      process.stdout.write(
        `${hit.session_title} (${hit.session_id}) · ${KIND_LABEL[hit.kind]} · ${turn}\n` +
          `  ${markMatches(hit.snippet, hit.match_ranges, tty)}\n`,
      );
    }
    if (result.next_before !== null) {
      process.stdout.write(`More hits: add --before ${result.next_before}\n`);
    }
    return EXIT.ok;
  });
}

/**
 * The snippet on one line with its matches marked: bold on a terminal, [brackets] otherwise (so a pipe
 * or a file still shows them). Ranges are UTF-16 offsets, as String.slice takes them.
 */
export function markMatches(snippet: string, ranges: MatchRange[], bold: boolean): string {
  const [open, close] = bold ? ['\x1b[1m', '\x1b[22m'] : ['[', ']'];
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let text = '';
  let at = 0;
  for (const { start, end } of sorted) {
    if (start < at || end <= start || end > snippet.length) continue;
    text += `${snippet.slice(at, start)}${open}${snippet.slice(start, end)}${close}`;
    at = end;
  }
  return `${text}${snippet.slice(at)}`.replace(/\s*\n\s*/g, ' ');
}
