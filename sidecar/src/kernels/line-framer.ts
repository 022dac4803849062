/** The longest line the host accepts from a driver; a result or display beyond this is refused. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How much of a refused line is kept, to tell which message it was. */
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;

export interface LineFramerHandlers {
  /** A complete line, without its `\n`. */
  onLine: (line: Buffer) => void;
  /**
   * A line over the cap ended: its first bytes and its length (the rest was discarded). Reported at its
   * `\n`, not when it passes the cap, so whoever answers does so after the writer has finished the line.
   */
  onOverflow: (head: Buffer, bytes: number) => void;
}

/**
 * Splits a byte stream into `\n`-terminated lines. Only each new chunk is searched and the chunks of a
 * line are joined once, so a long line costs linear time; a line over `maxLineBytes` is dropped rather than
 * held, so a runaway writer cannot exhaust memory (or V8's string limit).
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The line over the cap being skipped: its head, and its length so far. */
  private overflow: { head: Buffer; bytes: number } | null = null;

  constructor(
    private readonly handlers: LineFramerHandlers,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      this.append(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  private endLine(): void {
    const { overflow, chunks, size } = this;
    this.overflow = null;
    this.chunks = [];
    this.size = 0;
    if (overflow) this.handlers.onOverflow(overflow.head, overflow.bytes);
    else this.handlers.onLine(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  }

  private append(piece: Buffer): void {
    if (this.overflow) {
      this.overflow.bytes += piece.length;
      return;
    }
    if (piece.length === 0) return;
    this.chunks.push(piece);
    this.size += piece.length;
    if (this.size <= this.maxLineBytes) return;
    this.overflow = { head: headOf(this.chunks), bytes: this.size };
    this.chunks = [];
    this.size = 0;
  }
}

/** The first HEAD_BYTES of a line held as chunks, copied so the chunks can be freed. */
function headOf(chunks: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= HEAD_BYTES) break;
    const part = chunk.subarray(0, HEAD_BYTES - size);
    parts.push(part);
    size += part.length;
  }
  return Buffer.concat(parts, size);
}
