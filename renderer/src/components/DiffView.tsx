import { memo } from 'react';
import type { DiffLine } from './line-diff';
import { MarkedText } from './MarkedText';

/** A line DiffView shows: a diff line, or a unified diff's hunk header or "\ No newline" note. */
export type DiffViewLine = DiffLine | { kind: 'hunk' | 'note'; text: string };

const SIGNS = { same: ' ', removed: '-', added: '+', hunk: '', note: '' } as const;

/**
 * The lines of a diff (`diffLines`) as a unified-style diff: every line, removed ones in red with "-",
 * added ones in green with "+" (the signs carry the meaning without colour). Scrolls in its box.
 * Invisible characters show as markers. Hunk headers and notes (from a unified diff) show dim.
 */
export const DiffView = memo(function DiffView({ lines }: { lines: DiffViewLine[] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <pre className="tool-card-pre diff-view" tabIndex={0}>
      {lines.map((line, i) => {
        const Line = line.kind === 'removed' ? 'del' : line.kind === 'added' ? 'ins' : 'span';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are recomputed whole and never reorder
          <Line key={i} className={`diff-line diff-line--${line.kind}`}>
            <span className="diff-sign" aria-hidden="true">
              {SIGNS[line.kind]}
            </span>
            <MarkedText text={line.text} />
            {'\n'}
          </Line>
        );
      })}
    </pre>
  );
});
