/** The longest line the host accepts from a driver; a result or display beyond this is refused. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How much of a refused line is kept, to tell which message it was. */
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;

export interface LineFramerHandlers {
  /** A complete line, without its `\n`. It may announce a raw payload (LineFramer.readPayload). */
  onLine: (line: Buffer) => void;
  /** The raw payload announced by the line just before it: exactly its bytes. */
  onPayload: (payload: Buffer) => void;
  /**
   * A line or payload over the cap ended: its first bytes (for a payload, its header line's) and its length
   * (the rest was discarded). Reported at its end, not when it passes the cap, so whoever answers does so
   * after the writer has finished it.
   */
  onOverflow: (head: Buffer, bytes: number) => void;
  /**
   * The input ended (end()) inside a line or a payload: its first bytes (for a payload, its header line's),
   * and how many of its bytes had arrived. What had arrived is dropped.
   */
  onTruncated?: (head: Buffer, bytes: number) => void;
}

/** The payload being read, or skipped when over the cap. */
interface Payload {
  /** Its header line's first bytes. */
  head: Buffer;
  bytes: number;
  skip: boolean;
}

/**
 * Splits a byte stream into `\n`-terminated lines, and the raw payloads some lines announce. Only each new
 * chunk is searched and the chunks of a line or payload are joined once, so a long one costs linear time; a
 * line over `maxLineBytes` or a payload over `maxPayloadBytes` is dropped rather than held, so a runaway
 * writer cannot exhaust memory (or V8's string limit).
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The line over the cap being skipped: its head, and its length so far. */
  private overflow: { head: Buffer; bytes: number } | null = null;
  private payload: Payload | null = null;
  /** The line being handed to onLine, the header of a payload it may announce. */
  private lineInHand: Buffer | null = null;

  constructor(
    private readonly handlers: LineFramerHandlers,
    private readonly maxLineBytes = MAX_LINE_BYTES,
    private readonly maxPayloadBytes = maxLineBytes,
  ) {}

  /**
   * Called from onLine: the next `bytes` bytes are that line's payload (onPayload), not lines. Over the cap
   * they are skipped and reported to onOverflow with the line's head, so the framing stays in step. An
   * empty payload is delivered at once, from within this call.
   */
  readPayload(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError(`Bad payload length ${bytes}.`);
    const head = headOf(this.lineInHand ? [this.lineInHand] : []);
    this.payload = { head, bytes, skip: bytes > this.maxPayloadBytes };
    if (bytes === 0) this.endPayload();
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      if (this.payload) {
        start = this.appendPayload(chunk, start);
        continue;
      }
      const newline = chunk.indexOf(NEWLINE, start);
      this.append(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      start = newline + 1;
      this.endLine();
    }
  }

  /** The input has ended: reports a line or payload it cut short (onTruncated), and starts afresh. */
  end(): void {
    const { payload, overflow, chunks, size } = this;
    this.reset();
    if (payload) this.handlers.onTruncated?.(payload.head, size);
    else if (overflow) this.handlers.onTruncated?.(overflow.head, overflow.bytes);
    else if (size > 0) this.handlers.onTruncated?.(headOf(chunks), size);
  }

  /** Takes what the chunk holds of the payload; returns where the rest of the chunk starts. */
  private appendPayload(chunk: Buffer, start: number): number {
    const payload = this.payload!;
    const take = Math.min(chunk.length - start, payload.bytes - this.size);
    if (!payload.skip) this.chunks.push(chunk.subarray(start, start + take));
    this.size += take;
    if (this.size === payload.bytes) this.endPayload();
    return start + take;
  }

  private endPayload(): void {
    const { payload, chunks, size } = this;
    this.reset();
    if (payload!.skip) this.handlers.onOverflow(payload!.head, size);
    else this.handlers.onPayload(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  }

  private endLine(): void {
    const { overflow, chunks, size } = this;
    this.reset();
    if (overflow) {
      this.handlers.onOverflow(overflow.head, overflow.bytes);
      return;
    }
    const line = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    this.lineInHand = line;
    try {
      this.handlers.onLine(line);
    } finally {
      this.lineInHand = null;
    }
  }

  private reset(): void {
    this.overflow = null;
    this.payload = null;
    this.chunks = [];
    this.size = 0;
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
