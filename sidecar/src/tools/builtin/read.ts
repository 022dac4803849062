import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { z } from 'zod';
import { assertRegularFile, requireProjectRoot, resolveInside } from '../path-guard';
import { defineTool, ToolError } from '../tool';

export const DEFAULT_READ_LINES = 2000;
/** Longer lines are cut (minified code would otherwise flood the context). */
const MAX_LINE_CHARS = 2000;
/** Stop adding lines once the output is this long, whatever the limit. */
const MAX_OUTPUT_CHARS = 256_000;
/** Up to this size the whole file is scanned so the note can give the total line count. */
const COUNT_ALL_LINES_MAX_BYTES = 20_000_000;
const BINARY_SNIFF_BYTES = 8192;

const inputSchema = z.object({
  path: z.string().min(1).describe('The file to read: relative to the project folder, or absolute.'),
  offset: z.number().int().min(1).optional().describe('The first line to show, 1-based (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to show (default ${DEFAULT_READ_LINES}).`),
});

export const readTool = defineTool({
  name: 'Read',
  description:
    'Reads a text file and returns its lines numbered like `cat -n` (number, tab, text). Shows up to ' +
    `${DEFAULT_READ_LINES} lines from \`offset\`; a note at the end says how to read on. Lines over ` +
    `${MAX_LINE_CHARS} characters are cut. Refuses binary files. Also reads files in this session's ` +
    'tool-results folder (where long tool outputs are saved).',
  inputSchema,
  sideEffects: false,
  needsProject: true,
  async execute(input, ctx) {
    const root = requireProjectRoot(ctx);
    const file = await resolveInside(root, input.path, {
      extraRoots: [ctx.sessionResultsDir, ...(ctx.inheritedResultsDirs ?? [])],
      mustExist: true,
    });
    const stats = await assertRegularFile(file, { label: input.path });
    if (await looksBinary(file)) {
      throw new ToolError(
        `"${input.path}" looks like a binary file (it contains NUL bytes); Read shows text only.`,
      );
    }
    const offset = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LINES;
    const countAll = (stats?.size ?? 0) <= COUNT_ALL_LINES_MAX_BYTES;
    const { lines, totalLines, more } = await readLines(file, offset, limit, countAll, ctx.signal);

    if (totalLines === 0 && !more) return { content: `"${input.path}" is empty.` };
    if (lines.length === 0) {
      throw new ToolError(
        `offset ${offset} is past the end of "${input.path}", which has ${totalLines} lines.`,
      );
    }
    const numbered = lines.map((line, i) => `${String(offset + i).padStart(6)}\t${line}`).join('\n');
    if (!more) return { content: numbered };
    const last = offset + lines.length - 1;
    const of = countAll ? ` of ${totalLines}` : '';
    return {
      content: `${numbered}\n\n[Showing lines ${offset}-${last}${of}; continue with offset=${last + 1}.]`,
    };
  },
});

async function looksBinary(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

interface ReadLinesResult {
  lines: string[];
  /** Lines seen: all of them when counting to the end, else up to where reading stopped. */
  totalLines: number;
  more: boolean;
}

/** Lines `from`..`from+count-1` (1-based), streamed so a huge file is not loaded whole. */
async function readLines(
  file: string,
  from: number,
  count: number,
  countAll: boolean,
  signal: AbortSignal,
): Promise<ReadLinesResult> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  const lines: string[] = [];
  let lineNo = 0;
  let chars = 0;
  let more = false;
  let partial = '';
  const take = (raw: string): boolean => {
    lineNo++;
    if (lineNo < from) return true;
    if (lines.length >= count || chars >= MAX_OUTPUT_CHARS) {
      more = true;
      return countAll;
    }
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)} [line cut]` : text;
    lines.push(shown);
    chars += shown.length + 8;
    return true;
  };
  try {
    reading: for await (const chunk of stream as AsyncIterable<string>) {
      signal.throwIfAborted();
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) if (!take(part)) break reading;
    }
    if (partial !== '' && (!more || countAll)) take(partial);
  } finally {
    stream.destroy();
  }
  return { lines, totalLines: lineNo, more };
}
