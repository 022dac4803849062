import type { Writable } from 'node:stream';
import type { CairnEvent } from '../protocol';

/** Prints a turn's events: one JSON object a line, or readable text (answer on stdout, the rest on stderr). */
export class EventPrinter {
  private midLine = false;

  constructor(
    private readonly json: boolean,
    private readonly out: Writable,
    private readonly err: Writable,
  ) {}

  print(event: CairnEvent): void {
    if (this.json) {
      this.out.write(`${JSON.stringify(event)}\n`);
      return;
    }
    switch (event.type) {
      case 'message.delta':
        this.out.write(event.text);
        this.midLine = !event.text.endsWith('\n');
        return;
      case 'tool.started':
        this.note(`▸ ${event.name} ${summarize(event.input)}`);
        return;
      case 'tool.finished':
        this.note(`  ${event.status} in ${event.duration_ms} ms`);
        return;
      case 'llm.continuation':
        this.note(`(output limit reached: continuing, ${event.attempt}/${event.max_attempts})`);
        return;
      case 'question.required':
        this.note(
          `? ${event.question.question}${event.question.options ? ` [${event.question.options.join(' / ')}]` : ''}`,
        );
        return;
      case 'turn.failed':
        this.note(`✗ ${event.error.message}`);
        return;
      case 'turn.cancelled':
        this.note('Cancelled.');
        return;
      case 'turn.interrupted':
        this.note(`Interrupted: ${event.reason}`);
        return;
      default:
        return;
    }
  }

  end(): void {
    if (!this.json && this.midLine) this.out.write('\n');
  }

  private note(text: string): void {
    if (this.midLine) {
      this.out.write('\n');
      this.midLine = false;
    }
    this.err.write(`${text}\n`);
  }
}

function summarize(input: unknown): string {
  const text =
    typeof input === 'object' && input !== null && 'command' in input
      ? String(input.command)
      : JSON.stringify(input);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
