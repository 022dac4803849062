import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { DiffView, type DiffViewLine } from '../DiffView';
import { diffLines } from '../line-diff';
import { collapseUnchanged } from './collapse-unchanged';
import { type DiffLayout, setDiffLayout, useDiffLayout } from './diff-layout';
import { SideBySideDiff } from './SideBySideDiff';
import '../../i18n/messages/file-cards';

const LAYOUTS: { layout: DiffLayout; key: 'file.diff.unified' | 'file.diff.split' }[] = [
  { layout: 'unified', key: 'file.diff.unified' },
  { layout: 'split', key: 'file.diff.split' },
];

/** More rows than this are left out until asked for: each is a few DOM nodes, and 100k of them freeze the window. */
export const MAX_DIFF_ROWS = 400;

/**
 * The old text against the new as a diff, unified or side by side as the user last chose; long runs of
 * unchanged lines folded until asked for, and only the first rows of a big diff.
 */
export function ChangeDiff({ before, after }: { before: string; after: string }) {
  const { t, formatNumber } = useI18n();
  const layout = useDiffLayout();
  const [whole, setWhole] = useState(false);
  const [all, setAll] = useState(false);
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const collapsed = useMemo(() => collapseUnchanged(lines), [lines]);
  const folds = collapsed.length < lines.length;
  const rows = useMemo(
    (): DiffViewLine[] =>
      whole
        ? lines
        : collapsed.map((line) =>
            line.kind === 'skipped'
              ? { kind: 'hunk', text: t('file.diff.unchanged', { count: formatNumber(line.count) }) }
              : line,
          ),
    [whole, lines, collapsed, t, formatNumber],
  );
  const cut = !all && rows.length > MAX_DIFF_ROWS;
  const shown = useMemo(() => (cut ? rows.slice(0, MAX_DIFF_ROWS) : rows), [cut, rows]);
  const changed = lines.some((line) => line.kind !== 'same');
  return (
    <div className="change-diff">
      <div className="change-diff-bar">
        {/* biome-ignore lint/a11y/useSemanticElements: a pair of pressed-state buttons, not a form's fieldset */}
        <div className="change-diff-layout" role="group" aria-label={t('file.diff.layout')}>
          {LAYOUTS.map((option) => (
            <button
              key={option.layout}
              type="button"
              className="change-diff-choice"
              aria-pressed={layout === option.layout}
              onClick={() => setDiffLayout(option.layout)}
            >
              {t(option.key)}
            </button>
          ))}
        </div>
        {folds && (
          <button type="button" className="change-diff-fold" onClick={() => setWhole((value) => !value)}>
            {whole ? t('file.diff.foldUnchanged') : t('file.diff.showUnchanged')}
          </button>
        )}
      </div>
      {layout === 'split' ? <SideBySideDiff lines={shown} /> : <DiffView lines={shown} />}
      {cut && (
        <>
          <p className="tool-card-note">
            {t('file.diff.cut', { shown: formatNumber(MAX_DIFF_ROWS), count: formatNumber(rows.length) })}
          </p>
          <button type="button" className="conv-button tool-card-more" onClick={() => setAll(true)}>
            {t('file.diff.showAll', { count: formatNumber(rows.length) })}
          </button>
        </>
      )}
      {!changed && <p className="tool-card-note">{t('file.diff.same')}</p>}
    </div>
  );
}
