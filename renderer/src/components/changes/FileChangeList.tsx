import { useState } from 'react';
import type { FileChange } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { FileChangeRow } from './FileChangeRow';
import '../../i18n/messages/changed-files';

/** How many files a list shows before "Show all": a turn that rewrote a tree stays readable. */
export const FIRST_FILES = 50;

/** Changed files, each with its diff on demand; the first FIRST_FILES, then "Show all N". */
export function FileChangeList({ changes }: { changes: FileChange[] }) {
  const { t, formatNumber } = useI18n();
  const [all, setAll] = useState(false);
  const shown = all ? changes : changes.slice(0, FIRST_FILES);
  return (
    <>
      <ul className="file-change-list" aria-label={t('changes.listLabel')}>
        {shown.map((change) => (
          <FileChangeRow key={change.path} change={change} />
        ))}
      </ul>
      {shown.length < changes.length && (
        <button type="button" className="link-button file-change-more" onClick={() => setAll(true)}>
          {t('changes.showAll', { count: formatNumber(changes.length) })}
        </button>
      )}
    </>
  );
}
