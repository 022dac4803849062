import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../../../log/logger';
import { FromWorker, type ToWorker, type WorkerChannel } from './worker-protocol';

/** The longest line accepted from a worker; a longer one is a broken worker, not a message. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * A worker channel over a process's streams: one JSON message per line each way. A line that is not a
 * message is logged and skipped. Writes after the worker is gone are dropped (its end is reported by the
 * process, not here).
 */
export class LineChannel implements WorkerChannel {
  private readonly handlers: ((message: FromWorker) => void)[] = [];
  private readonly closeHandlers: (() => void)[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private buffered = '';
  private closed = false;

  constructor(
    private readonly input: Writable,
    output: Readable,
    private readonly logger: Logger,
  ) {
    // EPIPE after the worker died arrives as an 'error' event: unhandled it would end the sidecar.
    input.on('error', () => {});
    output.on('error', () => this.close());
    output.on('data', (chunk: Buffer) => this.take(this.decoder.write(chunk)));
    output.on('end', () => this.close());
    output.on('close', () => this.close());
  }

  send(message: ToWorker): void {
    if (this.input.destroyed || this.input.writableEnded) return;
    this.input.write(`${JSON.stringify(message)}\n`);
  }

  onMessage(handler: (message: FromWorker) => void): void {
    this.handlers.push(handler);
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  /** Ends the stream to the worker, which then exits on its own. */
  end(): void {
    if (!this.input.destroyed && !this.input.writableEnded) this.input.end();
  }

  private take(text: string): void {
    this.buffered += text;
    let end = this.buffered.indexOf('\n');
    while (end !== -1) {
      const line = this.buffered.slice(0, end).trim();
      this.buffered = this.buffered.slice(end + 1);
      if (line !== '') this.receive(line);
      end = this.buffered.indexOf('\n');
    }
    if (this.buffered.length > MAX_LINE_CHARS) {
      this.logger.warn('a loaded tool worker sent an overlong line; dropped', {
        chars: this.buffered.length,
      });
      this.buffered = '';
    }
  }

  private receive(line: string): void {
    let parsed: ReturnType<typeof FromWorker.safeParse>;
    try {
      parsed = FromWorker.safeParse(JSON.parse(line));
    } catch {
      this.logger.warn('a loaded tool worker sent a line that is not JSON', { line: line.slice(0, 200) });
      return;
    }
    if (!parsed.success) {
      this.logger.warn('a loaded tool worker sent an unknown message', { line: line.slice(0, 200) });
      return;
    }
    for (const handler of this.handlers) handler(parsed.data);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
