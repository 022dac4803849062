import fs from 'node:fs/promises';
import { z } from 'zod';
import { assertRegularFile, displayPath, requireProjectRoot, resolveInside } from '../path-guard';
import { defineTool, ToolError } from '../tool';

const inputSchema = z.object({
  path: z.string().min(1).describe('The file to edit: relative to the project folder, or absolute.'),
  old_string: z
    .string()
    .describe('The exact text to replace, including whitespace and indentation; must occur exactly once.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string instead of requiring exactly one (default false).'),
});

export const editTool = defineTool({
  name: 'Edit',
  description:
    'Replaces an exact string in a text file. old_string must match the file exactly (whitespace and ' +
    'indentation included) and occur exactly once, unless replace_all is set; add surrounding lines to ' +
    'make it unique. Read the file first. To create a file use Write.',
  inputSchema,
  sideEffects: true,
  needsProject: true,
  async execute(input, ctx) {
    const root = requireProjectRoot(ctx);
    if (input.old_string === '') {
      throw new ToolError('old_string is empty; to create or fill a file use Write.');
    }
    if (input.old_string === input.new_string) {
      throw new ToolError('old_string and new_string are the same, so there is nothing to change.');
    }
    const file = await resolveInside(root, input.path, { mustExist: true });
    await assertRegularFile(file, { label: input.path });
    const buffer = await fs.readFile(file);
    if (buffer.subarray(0, 8192).includes(0)) {
      throw new ToolError(
        `"${input.path}" looks like a binary file (it contains NUL bytes); Edit changes text only.`,
      );
    }
    const text = buffer.toString('utf8');
    let oldString = input.old_string;
    let newString = input.new_string;
    let positions = findAll(text, oldString);
    // Models write "\n"; a file with Windows line endings holds "\r\n".
    if (
      positions.length === 0 &&
      text.includes('\r\n') &&
      oldString.includes('\n') &&
      !oldString.includes('\r')
    ) {
      oldString = oldString.replaceAll('\n', '\r\n');
      newString = newString.replaceAll('\n', '\r\n');
      positions = findAll(text, oldString);
    }
    const shown = displayPath(root, file);
    if (positions.length === 0) {
      throw new ToolError(
        `old_string was not found in ${shown}. It must match exactly, including whitespace and indentation; ` +
          'Read the file to copy the current text.',
      );
    }
    if (positions.length > 1 && !input.replace_all) {
      throw new ToolError(
        `old_string matches ${positions.length} times in ${shown}. Add surrounding context to make it ` +
          'unique, or set replace_all to replace every occurrence.',
      );
    }
    let updated = '';
    let from = 0;
    for (const at of positions) {
      updated += text.slice(from, at) + newString;
      from = at + oldString.length;
    }
    updated += text.slice(from);
    await fs.writeFile(file, updated, 'utf8');
    const first = positions[0] ?? 0;
    const line = text.slice(0, first).split('\n').length;
    if (positions.length === 1) return { content: `Replaced 1 occurrence in ${shown} (line ${line}).` };
    return { content: `Replaced ${positions.length} occurrences in ${shown} (first at line ${line}).` };
  },
});

/** Start offsets of the non-overlapping occurrences of `needle`. */
function findAll(text: string, needle: string): number[] {
  const positions: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    positions.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return positions;
}
