import type { StructuredSummary } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';

const TEXT_FIELDS = ['goal', 'instruction', 'current_status'] as const;
const LIST_FIELDS = [
  'discoveries',
  'completed',
  'likely_next_work',
  'relevant_files_directories',
  'remember',
] as const;

/** A compaction's structured summary, field by field; empty fields are left out. */
export function SummaryView({ summary }: { summary: StructuredSummary }) {
  const t = useT();
  const variables = summary.kernel_variables ?? [];
  return (
    <dl className="summary-view">
      {TEXT_FIELDS.filter((f) => summary[f].trim() !== '').map((field) => (
        <div key={field}>
          <dt>{t(`context.summary.${field}`)}</dt>
          <dd>{summary[field]}</dd>
        </div>
      ))}
      {LIST_FIELDS.filter((f) => summary[f].length > 0).map((field) => (
        <div key={field}>
          <dt>{t(`context.summary.${field}`)}</dt>
          <dd>
            <ul>
              {summary[field].map((entry, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: entries are plain strings that may repeat
                <li key={i}>{entry}</li>
              ))}
            </ul>
          </dd>
        </div>
      ))}
      {variables.length > 0 && (
        <div>
          <dt>{t('context.summary.kernel_variables')}</dt>
          <dd>
            <ul className="summary-variables">
              {variables.map((v) => (
                <li key={`${v.kernel}:${v.name}`}>
                  <code>{v.name}</code> <span className="muted">{v.type}</span> <code>{v.repr}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      )}
    </dl>
  );
}
