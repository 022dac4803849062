import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../../../log/logger';

/** Lines kept for a crash message, and the most characters they may hold together. */
const TAIL_LINES = 20;
const TAIL_CHARS = 4000;
/** A worker's lines beyond this many are no longer logged (a chatty tool must not flood Cairn's log). */
const LOGGED_LINES = 1000;
const LOGGED_LINE_CHARS = 2000;

/**
 * What a worker writes besides its channel (its stderr, and a JavaScript tool's stdout): logged line by
 * line, and its last lines kept to explain a crash.
 */
export class OutputTail {
  private readonly lines: string[] = [];
  private logged = 0;
  private readonly open = new Set<Readable>();
  private readonly drained: Promise<void>;
  private markDrained!: () => void;

  constructor(private readonly logger: Logger) {
    this.drained = new Promise((resolve) => {
      this.markDrained = resolve;
    });
  }

  /** Reads `stream` to its end. */
  follow(stream: Readable): void {
    const decoder = new StringDecoder('utf8');
    let partial = '';
    this.open.add(stream);
    stream.on('data', (chunk: Buffer) => {
      const parts = (partial + decoder.write(chunk)).split(/\r?\n/);
      partial = parts.pop() ?? '';
      for (const line of parts) this.add(line);
    });
    const end = () => {
      if (!this.open.delete(stream)) return;
      if (partial !== '') this.add(partial + decoder.end());
      partial = '';
      if (this.open.size === 0) this.markDrained();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
  }

  /** Resolves once every followed stream ended, or after `ms` (a program the tool started may hold them). */
  async settle(ms: number): Promise<void> {
    if (this.open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** The last lines, newest last. */
  text(): string {
    return this.lines.join('\n');
  }

  private add(line: string): void {
    if (this.logged < LOGGED_LINES) {
      this.logger.info('loaded tool output', { line: line.slice(0, LOGGED_LINE_CHARS) });
    } else if (this.logged === LOGGED_LINES) {
      this.logger.info('loaded tool output: further lines are not logged');
    }
    this.logged++;
    if (line.trim() === '') return;
    this.lines.push(line.length > TAIL_CHARS ? `${line.slice(0, TAIL_CHARS)}…` : line);
    while (this.lines.length > TAIL_LINES) this.lines.shift();
    while (this.lines.length > 1 && this.lines.reduce((n, l) => n + l.length + 1, 0) > TAIL_CHARS) {
      this.lines.shift();
    }
  }
}
