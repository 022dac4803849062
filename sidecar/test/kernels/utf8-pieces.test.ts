import { describe, expect, it } from 'vitest';
import { MAX_PIECE_BYTES, utf8Pieces } from '../../src/kernels/utf8-pieces';

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

describe('utf8Pieces', () => {
  it('keeps text within the cap as one piece, an empty payload included', () => {
    expect(utf8Pieces(Buffer.from('hello\n'))).toEqual(['hello\n']);
    expect(utf8Pieces(Buffer.alloc(0))).toEqual(['']);
    expect(utf8Pieces(Buffer.alloc(MAX_PIECE_BYTES, 'x'))).toHaveLength(1);
  });

  it('cuts longer text into pieces of at most the cap, never inside a character', () => {
    // 1-, 2-, 3- and 4-byte characters, so cuts land on every kind of boundary.
    const text = 'aé€😀'.repeat(8_000);
    for (const max of [4, 5, 7, 1000, MAX_PIECE_BYTES]) {
      const pieces = utf8Pieces(Buffer.from(text), max);
      expect(pieces.join('')).toBe(text);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.filter((piece) => bytesOf(piece) > max || piece.includes('\ufffd'))).toEqual([]);
    }
  });

  it('decodes invalid bytes as U+FFFD, as a whole decode would', () => {
    const bytes = Buffer.concat([
      Buffer.alloc(10, 'a'),
      Buffer.from([0xff, 0x80, 0x80]),
      Buffer.alloc(10, 'b'),
    ]);
    expect(utf8Pieces(bytes, 8).join('')).toBe(bytes.toString('utf8'));
  });

  it('refuses a cap that cannot hold a character', () => {
    expect(() => utf8Pieces(Buffer.from('x'), 3)).toThrow(RangeError);
  });
});
