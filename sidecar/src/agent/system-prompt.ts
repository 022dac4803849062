import fs from 'node:fs/promises';
import path from 'node:path';

/** Instruction files a project may hold, in the order they are looked for. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', 'CAIRN.md'] as const;
const MAX_INSTRUCTIONS_CHARS = 40_000;

export interface SystemPromptInput {
  projectRoot: string | null;
  toolNames: string[];
  platform?: NodeJS.Platform;
  date?: Date;
}

/** The system prompt: who the agent is, where it works, and the project's own instructions. */
export async function buildSystemPrompt(input: SystemPromptInput): Promise<string> {
  const platform = input.platform ?? process.platform;
  const parts = [
    'You are Cairn, an agent working with a person in their desktop workspace.',
    `Today is ${localDate(input.date ?? new Date())}. The machine runs ${platform}.`,
  ];
  if (input.projectRoot) {
    parts.push(
      `You are working in the project folder ${input.projectRoot}. Relative paths are relative to it, ` +
        'and file tools cannot reach outside it. Each Bash call starts a fresh shell in that folder: ' +
        'cd and exported variables do not carry over between calls.',
    );
    if (platform === 'win32') {
      parts.push(
        "On this Windows machine Bash is Git for Windows' bash (paths look like /c/Users/...; file tools take " +
          'C:\\... or relative paths). Programs that are .cmd/.bat scripts, such as npm, run through Exec as ' +
          'program "cmd.exe" with args ["/d", "/s", "/c", "npm", ...].',
      );
    }
  } else {
    parts.push('This conversation has no project folder, so there are no shell or file tools.');
  }
  if (input.toolNames.length > 0) parts.push(`Tools available: ${input.toolNames.join(', ')}.`);
  parts.push(
    'Prefer small, verifiable steps. When a request is ambiguous or a decision is the user’s, ask with ' +
      'AskUserQuestion rather than guessing.',
  );
  const instructions = input.projectRoot ? await readInstructions(input.projectRoot) : null;
  if (instructions) {
    parts.push(
      `The project's instruction file ${instructions.file} says:\n<project-instructions>\n${instructions.text}\n</project-instructions>`,
    );
  }
  return parts.join('\n\n');
}

async function readInstructions(root: string): Promise<{ file: string; text: string } | null> {
  for (const file of INSTRUCTION_FILES) {
    try {
      const stat = await fs.stat(path.join(root, file));
      if (!stat.isFile()) continue;
      let text = await fs.readFile(path.join(root, file), 'utf8');
      if (text.length > MAX_INSTRUCTIONS_CHARS) {
        text = `${text.slice(0, MAX_INSTRUCTIONS_CHARS)}\n[... truncated: the file is longer]`;
      }
      return { file, text };
    } catch {
      // Not there: try the next name.
    }
  }
  return null;
}

/** The date where the user is, not in UTC (late evening would otherwise be tomorrow). */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
