import readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { Question } from '../protocol';
import { revealHidden } from './reveal-hidden';

/** Asks a question at the terminal; options may be answered by number. Aborting withdraws the prompt. */
export async function askAtTerminal(question: Question, signal: AbortSignal): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const options = question.options ?? [];
    options.forEach((option, i) => {
      process.stderr.write(`  ${i + 1}. ${revealHidden(option).text}\n`);
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

/**
 * Reads one line for a cell's `input()` at the terminal (the event printer has shown the cell's prompt):
 * "" is a valid answer. A password (getpass) is not echoed. Aborting withdraws the prompt.
 */
export async function askKernelInputAtTerminal(password: boolean, signal: AbortSignal): Promise<string> {
  let muted = false;
  // readline echoes what is typed through its output: a password prompt stops passing that on.
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({
    input: process.stdin,
    output,
    terminal: process.stdin.isTTY === true,
  });
  try {
    const answer = rl.question('> ', { signal });
    muted = password;
    return await answer;
  } finally {
    if (muted) process.stderr.write('\n');
    rl.close();
  }
}
