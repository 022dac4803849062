import { memo, useMemo } from 'react';
import { MarkedText } from '../MarkedText';

type Piece = { kind: 'program' | 'flag' | 'string' | 'operator' | 'text'; text: string };

// Quoted strings, operators that start a new command, flags, words and the spaces between them.
const TOKEN = /('[^']*'?|"(?:\\.|[^"\\])*"?|&&|\|\||[|;&]|\s+|[^\s'"|;&]+)/g;

/**
 * A command line split into what a reader scans for: each command's program, its flags, quoted strings
 * and the operators between commands. A cheap pass for one line, not a shell parser.
 */
export function shellPieces(line: string): Piece[] {
  const pieces: Piece[] = [];
  let expectProgram = true;
  for (const match of line.matchAll(TOKEN)) {
    const text = match[0];
    if (/^\s+$/.test(text)) pieces.push({ kind: 'text', text });
    else if (/^(&&|\|\||[|;&])$/.test(text)) {
      pieces.push({ kind: 'operator', text });
      expectProgram = true;
    } else if (text.startsWith("'") || text.startsWith('"')) {
      pieces.push({ kind: 'string', text });
      expectProgram = false;
    } else if (expectProgram && !/^\w+=/.test(text)) {
      pieces.push({ kind: 'program', text });
      expectProgram = false;
    } else pieces.push({ kind: text.startsWith('-') ? 'flag' : 'text', text });
  }
  return pieces;
}

/** A command as the collapsed line of its card shows it: one line, its parts coloured. */
export const ShellLine = memo(function ShellLine({ line }: { line: string }) {
  const pieces = useMemo(() => shellPieces(line), [line]);
  return (
    <>
      {pieces.map((piece, i) =>
        piece.kind === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces are recomputed whole and never reorder
          <MarkedText key={i} text={piece.text} />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces are recomputed whole and never reorder
          <span key={i} className={`shell-${piece.kind}`}>
            <MarkedText text={piece.text} />
          </span>
        ),
      )}
    </>
  );
});
