import Anser from 'anser';
import { type CSSProperties, useMemo } from 'react';

/** Terminal output (ANSI colours, carriage returns) as React spans: never HTML. */
export interface AnsiSegment {
  text: string;
  className: string | null;
  style: CSSProperties | null;
}

/* biome-ignore-start lint/suspicious/noControlCharactersInRegex: these patterns exist to match control codes */
/** OSC (e.g. hyperlinks, window titles), charset selection and other escapes anser does not remove. */
const OTHER_ESCAPES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()*+][0-9A-Za-z]|\x1b[=>78cDEHMNOZ]/g;
/** Control characters left over after parsing (a stray ESC, bell, backspace…), except tab and newline. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
/* biome-ignore-end lint/suspicious/noControlCharactersInRegex: these patterns exist to match control codes */

const STANDARD_COLOURS = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;
const CUBE = [0, 95, 135, 175, 215, 255];

/** The xterm 256-colour palette entry (16–255) as an rgb() colour. */
function paletteColour(index: number): string {
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const n = index - 16;
  return `rgb(${CUBE[Math.floor(n / 36)]}, ${CUBE[Math.floor(n / 6) % 6]}, ${CUBE[n % 6]})`;
}

/** A colour from anser's class output: a theme class for the 16 colours, an inline colour otherwise. */
function colour(
  value: string | null,
  truecolor: string | null,
  layer: 'fg' | 'bg',
  classes: string[],
  style: CSSProperties,
) {
  if (!value) return;
  const property = layer === 'fg' ? 'color' : 'backgroundColor';
  if (STANDARD_COLOURS.test(value)) {
    classes.push(`${value}-${layer}`);
  } else if (value === 'ansi-truecolor' && truecolor) {
    style[property] = `rgb(${truecolor})`;
  } else if (value.startsWith('ansi-palette-')) {
    const index = Number(value.slice('ansi-palette-'.length));
    if (index >= 16 && index <= 255) style[property] = paletteColour(index);
  }
}

/** Terminal line endings: CRLF is a newline, and a lone CR (progress bars) overwrites the line. */
function settleCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const trimmed = line.replace(/\r+$/, '');
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    })
    .join('\n');
}

/** Text with ANSI SGR codes as styled segments; other escape sequences are dropped. Never HTML. */
export function ansiSegments(text: string): AnsiSegment[] {
  const clean = settleCarriageReturns(text).replace(OTHER_ESCAPES, '');
  const segments: AnsiSegment[] = [];
  for (const entry of Anser.ansiToJson(clean, { use_classes: true, remove_empty: true })) {
    const content = entry.content.replace(CONTROL, '');
    if (content === '') continue;
    const classes: string[] = [];
    const style: CSSProperties = {};
    colour(entry.fg, entry.fg_truecolor, 'fg', classes, style);
    colour(entry.bg, entry.bg_truecolor, 'bg', classes, style);
    for (const decoration of entry.decorations ?? []) {
      if (decoration !== 'blink' && decoration !== 'reverse') classes.push(`ansi-${decoration}`);
    }
    const className = classes.length > 0 ? classes.join(' ') : null;
    const inline = Object.keys(style).length > 0 ? style : null;
    const last = segments[segments.length - 1];
    if (last && !className && !inline && !last.className && !last.style) last.text += content;
    else segments.push({ text: content, className, style: inline });
  }
  return segments;
}

export function AnsiText({ text }: { text: string }) {
  const segments = useMemo(() => ansiSegments(text), [text]);
  return (
    <>
      {segments.map((segment, i) =>
        segment.className || segment.style ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are derived from the text and never reorder
          <span key={i} className={segment.className ?? undefined} style={segment.style ?? undefined}>
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

/** Terminal output with every escape removed: for results too large to colour. */
export function ansiToPlainText(text: string): string {
  return Anser.ansiToText(settleCarriageReturns(text).replace(OTHER_ESCAPES, '')).replace(CONTROL, '');
}
