import { describe, expect, it } from 'vitest';
import {
  countInvisible,
  countInvisibleIn,
  invisibleMarker,
  splitInvisible,
} from '../../src/components/invisible-chars';

const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** What the views show: each piece's text, or its marker. */
const shown = (text: string) =>
  splitInvisible(text)
    .map((piece) => (piece.kind === 'text' ? piece.text : piece.label))
    .join('');

describe('invisible characters', () => {
  it('shows a right-to-left override as a marker, so a path reads as it is', () => {
    expect(shown('notes\u202Etxt.sh')).toBe('notes⟨U+202E⟩txt.sh');
    expect(splitInvisible('notes\u202Etxt.sh')).toEqual([
      { kind: 'text', text: 'notes' },
      { kind: 'marker', char: '\u202E', label: '⟨U+202E⟩' },
      { kind: 'text', text: 'txt.sh' },
    ]);
  });

  it('finds every bidi control, zero-width and filler character, and tag character', () => {
    const codes = [
      // bidi controls
      ...range(0x202a, 0x202e),
      ...range(0x2066, 0x2069),
      0x200e,
      0x200f,
      0x061c,
      // zero-width and invisible
      ...range(0x200b, 0x200d),
      ...range(0x2060, 0x2064),
      0xfeff,
      0x00ad,
      0x180e,
      0x115f,
      0x1160,
      0x3164,
      0xffa0,
      0x2028,
      0x2029,
      // tags: invisible copies of ASCII
      ...range(0xe0000, 0xe007f),
    ];
    for (const code of codes) {
      const char = String.fromCodePoint(code);
      expect(shown(`a${char}b`), hex(code)).toBe(`a⟨U+${hex(code)}⟩b`);
      expect(countInvisible(`a${char}b`), hex(code)).toBe(1);
    }
  });

  it('finds control characters but tab and line feed, and a carriage return only when alone', () => {
    for (const code of [...range(0x00, 0x08), 0x0b, 0x0c, ...range(0x0e, 0x1f), ...range(0x7f, 0x9f)]) {
      expect(shown(`a${String.fromCharCode(code)}b`), hex(code)).toBe(`a⟨U+${hex(code)}⟩b`);
    }
    expect(countInvisible('a\tb\nc')).toBe(0);
    expect(countInvisible('line one\r\nline two\r\n')).toBe(0);
    expect(shown('echo safe\rrm -rf ~')).toBe('echo safe⟨U+000D⟩rm -rf ~');
    expect(shown('a\r\r\nb')).toBe('a⟨U+000D⟩\r\nb');
  });

  it('leaves ordinary text alone: letters of any script, emoji with their variation selectors', () => {
    for (const text of ['rm -rf build', '数据分析.py', 'שלום עולם', 'مرحبا', '❤️ ☺︎ 👍🏽', 'café', '']) {
      expect(countInvisible(text), text).toBe(0);
      expect(shown(text)).toBe(text);
    }
    expect(splitInvisible('plain')).toEqual([{ kind: 'text', text: 'plain' }]);
  });

  it('marks an astral character once, whole', () => {
    const tagged = `ok\u{E0049}\u{E0047}\u{E004E}`;
    expect(shown(tagged)).toBe('ok⟨U+E0049⟩⟨U+E0047⟩⟨U+E004E⟩');
    expect(countInvisible(tagged)).toBe(3);
    expect(invisibleMarker('\u{E007F}')).toBe('⟨U+E007F⟩');
  });

  it('keeps the text: the pieces put back together are the text itself', () => {
    const text = '\u200Bstart\u202Emiddle\u2066\u2069\r\nend\u00AD';
    const pieces = splitInvisible(text);
    expect(pieces.map((piece) => (piece.kind === 'text' ? piece.text : piece.char)).join('')).toBe(text);
    expect(pieces.filter((piece) => piece.kind === 'marker')).toHaveLength(5);
  });

  it('counts over a whole tool input: every string, keys included, nested', () => {
    const input = {
      path: 'a\u202Eb',
      args: ['x', 'y\u200B\u200B', 3, null, { deep: ['\u{E0041}'] }],
      'ke\u200Dy': true,
      plain: 'nothing here',
    };
    expect(countInvisibleIn(input)).toBe(5);
    expect(countInvisibleIn({ command: 'ls -la' })).toBe(0);
    expect(countInvisibleIn(undefined)).toBe(0);
    expect(countInvisibleIn('\u200E')).toBe(1);
  });
});
