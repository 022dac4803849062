import fs from 'node:fs';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../../config/owner-only-files';
import type { OutputPiece } from '../../protocol';

/** How many pieces a call keeps: older ones are deleted as new ones are written. */
export const KEEP_PIECES = 20;
/** A piece holds what arrived within this long… */
const PIECE_WINDOW_MS = 200;
/** …and at most this many characters: more output makes more pieces. */
export const PIECE_CHARS = 16 * 1024;
/** What one read of pieces returns at most, so a reply stays small. */
const READ_CHARS = 32 * 1024;

const PIECE_FILE = /^(\d{4,})\.txt$/;

/** `0000.txt`, …, `9999.txt`, `10000.txt`: four digits at least, more when needed. */
export function pieceFileName(n: number): string {
  return `${String(n).padStart(4, '0')}.txt`;
}

/**
 * Writes a streaming call's output into numbered pieces in its folder, a piece per short window (or per
 * PIECE_CHARS), keeping the newest KEEP_PIECES. Readers go by number: an older piece may be gone.
 */
export class PieceWriter {
  private pending = '';
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly dir: string) {}

  /** How many pieces were written so far (the next one's number). */
  get written(): number {
    return this.next;
  }

  write(text: string): void {
    if (this.closed || text === '') return;
    this.pending += text;
    while (this.pending.length >= PIECE_CHARS) {
      this.writePiece(this.pending.slice(0, PIECE_CHARS));
      this.pending = this.pending.slice(PIECE_CHARS);
    }
    if (this.pending !== '' && this.timer === null) {
      this.timer = setTimeout(() => this.flush(), PIECE_WINDOW_MS);
      this.timer.unref?.();
    }
  }

  /** Writes what is pending as a piece now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.writePiece(text);
  }

  /** The call ended: the rest becomes the last piece. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private writePiece(text: string): void {
    const n = this.next;
    this.next += 1;
    writeOwnerOnlyFile(path.join(this.dir, pieceFileName(n)), text);
    const old = n - KEEP_PIECES;
    if (old >= 0) fs.rmSync(path.join(this.dir, pieceFileName(old)), { force: true });
  }
}

/** The numbers of the pieces in a call's folder, oldest first. */
export function pieceNumbers(dir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const numbers: number[] = [];
  for (const name of names) {
    const match = PIECE_FILE.exec(name);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

export interface PieceRead {
  pieces: OutputPiece[];
  /** The number to read on after; null when no piece exists yet. */
  nextAfter: number | null;
  /** Pieces between `after` (or the start) and the first returned that this read leaves out: rotated away, or older than the newest that fit. */
  missing: number;
}

/**
 * Pieces after `after` (oldest first, as many as fit READ_CHARS), or without `after` the newest ones that
 * fit. A piece deleted between listing and reading counts as missing.
 */
export function readPieces(dir: string, after?: number): PieceRead {
  const numbers = pieceNumbers(dir);
  const last = numbers.at(-1);
  if (last === undefined) return { pieces: [], nextAfter: after ?? null, missing: 0 };
  const read = (n: number): string | null => {
    try {
      return fs.readFileSync(path.join(dir, pieceFileName(n)), 'utf8');
    } catch {
      return null;
    }
  };
  const pieces: OutputPiece[] = [];
  let size = 0;
  if (after === undefined) {
    // The newest text: walk back from the last piece while it fits.
    for (let i = numbers.length - 1; i >= 0; i--) {
      const text = read(numbers[i]!);
      if (text === null) break;
      if (pieces.length > 0 && size + text.length > READ_CHARS) break;
      pieces.unshift({ number: numbers[i]!, text });
      size += text.length;
    }
    const first = pieces[0]?.number ?? last + 1;
    return { pieces, nextAfter: last, missing: first };
  }
  const wanted = numbers.filter((n) => n > after);
  let expected = after + 1;
  let missing = 0;
  for (const n of wanted) {
    const text = read(n);
    if (text === null) continue;
    if (pieces.length > 0 && size + text.length > READ_CHARS) break;
    if (pieces.length === 0) missing = n - expected;
    pieces.push({ number: n, text });
    size += text.length;
    expected = n + 1;
  }
  return { pieces, nextAfter: pieces.at(-1)?.number ?? after, missing: Math.max(0, missing) };
}
