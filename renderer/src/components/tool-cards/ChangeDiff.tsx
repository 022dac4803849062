import { useMemo } from 'react';
import { useT } from '../../i18n/i18n';
import { DiffView } from '../DiffView';
import { diffLines } from '../line-diff';
import { type DiffLayout, setDiffLayout, useDiffLayout } from './diff-layout';
import { SideBySideDiff } from './SideBySideDiff';

const LAYOUTS: { layout: DiffLayout; key: 'file.diff.unified' | 'file.diff.split' }[] = [
  { layout: 'unified', key: 'file.diff.unified' },
  { layout: 'split', key: 'file.diff.split' },
];

/** The old text against the new as a diff, unified or side by side as the user last chose. */
export function ChangeDiff({ before, after }: { before: string; after: string }) {
  const t = useT();
  const layout = useDiffLayout();
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const changed = lines.some((line) => line.kind !== 'same');
  return (
    <div className="change-diff">
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
      {layout === 'split' ? <SideBySideDiff lines={lines} /> : <DiffView lines={lines} />}
      {!changed && <p className="tool-card-note">{t('file.diff.same')}</p>}
    </div>
  );
}
