import readline from 'node:readline/promises';
import type { Question } from '../protocol';

/** Asks a question at the terminal; options may be answered by number. Aborting withdraws the prompt. */
export async function askAtTerminal(question: Question, signal: AbortSignal): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const options = question.options ?? [];
    options.forEach((option, i) => {
      process.stderr.write(`  ${i + 1}. ${option}\n`);
    });
    for (;;) {
      const raw = (await rl.question('> ', { signal })).trim();
      const byNumber = Number(raw);
      if (Number.isInteger(byNumber) && byNumber >= 1 && byNumber <= options.length)
        return options[byNumber - 1]!;
      if (raw.length > 0) return raw;
    }
  } finally {
    rl.close();
  }
}
