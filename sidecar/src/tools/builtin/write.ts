import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { assertRegularFile, displayPath, requireProjectRoot, resolveInside } from '../path-guard';
import { defineTool } from '../tool';
import { readReplacedText, savePreviousContent } from './write-previous';

const inputSchema = z.object({
  path: z.string().min(1).describe('The file to write: relative to the project folder, or absolute.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeTool = defineTool({
  name: 'Write',
  description:
    'Writes a file in the project, replacing it if it exists and creating missing parent folders. Give the ' +
    'whole content; to change part of an existing file prefer Edit.',
  inputSchema,
  sideEffects: true,
  needsProject: true,
  async execute(input, ctx) {
    const root = requireProjectRoot(ctx);
    const file = await resolveInside(root, input.path);
    const existing = await assertRegularFile(file, { allowMissing: true, label: input.path });
    const previous = existing ? await readReplacedText(file, root) : null;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, input.content, 'utf8');
    const bytes = Buffer.byteLength(input.content, 'utf8');
    const lines = countLines(input.content);
    const verb = existing ? 'Overwrote' : 'Created';
    const content = `${verb} ${displayPath(root, file)}: ${bytes} bytes, ${lines} ${lines === 1 ? 'line' : 'lines'}.`;
    if (!existing) return { content };
    // The card shows what changed; the model's text stays as it was.
    const saved = previous !== null && savePreviousContent(ctx.replacedTextDir, ctx.toolCallId, previous);
    return { content, meta: { replaced: true, previous_saved: saved } };
  },
});

/** Lines as an editor counts them: a final newline does not start another line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
