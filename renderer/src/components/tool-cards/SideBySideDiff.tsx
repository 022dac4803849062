import { memo, useMemo } from 'react';
import { useT } from '../../i18n/i18n';
import type { DiffViewLine } from '../DiffView';
import { MarkedText } from '../MarkedText';
import { type SideCell, sideBySideRows } from './side-by-side-rows';
import '../../i18n/messages/file-cards';

const SIGNS = { same: ' ', removed: '-', added: '+' } as const;

function Cell({ cell }: { cell: SideCell }) {
  if (cell === null) return <td className="side-diff-cell side-diff-cell--empty" />;
  const Line = cell.kind === 'removed' ? 'del' : cell.kind === 'added' ? 'ins' : 'span';
  return (
    <td className={`side-diff-cell diff-line--${cell.kind}`}>
      <Line className="side-diff-text">
        <span className="diff-sign" aria-hidden="true">
          {SIGNS[cell.kind]}
        </span>
        <MarkedText text={cell.text} />
      </Line>
    </td>
  );
}

/**
 * A diff as two columns, the old text beside the new: changed lines face each other, kept ones line up.
 * The signs and the del/ins elements carry the meaning without colour. Scrolls in its box.
 */
export const SideBySideDiff = memo(function SideBySideDiff({ lines }: { lines: DiffViewLine[] }) {
  const t = useT();
  const rows = useMemo(() => sideBySideRows(lines), [lines]);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <div className="side-diff" tabIndex={0}>
      <table className="side-diff-table">
        <thead>
          <tr>
            <th scope="col">{t('file.diff.before')}</th>
            <th scope="col">{t('file.diff.after')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are recomputed whole and never reorder
            <tr key={i}>
              {'marker' in row ? (
                <td colSpan={2} className="side-diff-marker">
                  {row.marker}
                </td>
              ) : (
                <>
                  <Cell cell={row.before} />
                  <Cell cell={row.after} />
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
