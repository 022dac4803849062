import readline from 'node:readline';

/** What the person at the chat prompt did: typed a line, ended the input (Ctrl+D), or pressed Ctrl+C. */
export type PromptRead = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

/**
 * Reads chat lines from standard input. On a terminal each prompt has its own readline, closed before
 * the turn runs, so the question and approval prompts own the terminal while it does (and Ctrl+C then
 * reaches the process as SIGINT). Piped input is read by one readline, its lines queued: closing it
 * between lines would drop the rest of what it had already read.
 */
export class PromptReader {
  private piped: { lines: string[]; ended: boolean; wake: (() => void) | null } | null = null;
  private pipedReader: readline.Interface | null = null;
  /** Ends the read in progress as a Ctrl+C (a SIGINT that reached the process while it waited). */
  private interruptRead: (() => void) | null = null;

  constructor(private readonly tty: boolean) {}

  next(prompt: string): Promise<PromptRead> {
    return this.tty ? this.readAtTerminal(prompt) : this.readPiped();
  }

  /** A Ctrl+C that came as a signal (not typed at this prompt): the read in progress ends as one. */
  interrupt(): void {
    this.interruptRead?.();
  }

  close(): void {
    this.pipedReader?.close();
  }

  private readAtTerminal(prompt: string): Promise<PromptRead> {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    return new Promise((resolve) => {
      let done = false;
      const finish = (read: PromptRead) => {
        if (done) return;
        done = true;
        this.interruptRead = null;
        rl.close();
        resolve(read);
      };
      rl.on('SIGINT', () => finish({ kind: 'interrupt' }));
      this.interruptRead = () => finish({ kind: 'interrupt' });
      rl.on('close', () => finish({ kind: 'eof' }));
      rl.question(prompt, (text) => finish({ kind: 'line', text }));
    });
  }

  private async readPiped(): Promise<PromptRead> {
    if (!this.piped) {
      const piped = { lines: [] as string[], ended: false, wake: null as (() => void) | null };
      this.piped = piped;
      this.pipedReader = readline.createInterface({ input: process.stdin, terminal: false });
      this.pipedReader.on('line', (line) => {
        piped.lines.push(line);
        piped.wake?.();
      });
      this.pipedReader.on('close', () => {
        piped.ended = true;
        piped.wake?.();
      });
    }
    const piped = this.piped;
    let interrupted = false;
    const onSigint = () => {
      interrupted = true;
      piped.wake?.();
    };
    this.interruptRead = onSigint;
    try {
      while (piped.lines.length === 0 && !piped.ended && !interrupted) {
        await new Promise<void>((wake) => {
          piped.wake = wake;
        });
        piped.wake = null;
      }
    } finally {
      this.interruptRead = null;
    }
    if (interrupted) return { kind: 'interrupt' };
    const line = piped.lines.shift();
    return line === undefined ? { kind: 'eof' } : { kind: 'line', text: line };
  }
}
