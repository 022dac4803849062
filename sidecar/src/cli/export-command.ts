import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BACKEND_FLAGS, withBackend } from './backend-session';
import type { HttpFrontDoor } from './serve-command';
import { EXIT, UsageError } from './usage';

/** `cairn export SESSION [--format md|json] [--output FILE]`: to standard output unless --output. */
export async function exportCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...BACKEND_FLAGS,
      format: { type: 'string', default: 'md' },
      output: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [sessionId, ...extra] = positionals;
  if (!sessionId || extra.length > 0)
    throw new UsageError('Expected `cairn export SESSION` with one session id.');
  const format = values.format;
  if (format !== 'md' && format !== 'json')
    throw new UsageError(`--format must be md or json (got "${format}").`);
  const text = await withBackend(values, http, async ({ client }) =>
    format === 'md'
      ? client.exportMarkdown(sessionId)
      : `${JSON.stringify(await client.exportJson(sessionId), null, 2)}\n`,
  );
  if (values.output === undefined) {
    process.stdout.write(text);
    return EXIT.ok;
  }
  const file = path.resolve(values.output);
  fs.writeFileSync(file, text);
  process.stderr.write(`Exported session ${sessionId} to ${file}.\n`);
  return EXIT.ok;
}
