import { useI18n } from '../../i18n/i18n';
import type { CompactionItem } from '../../state/compaction-item';
import { CardHeading } from '../tool-cards/CardFrame';
import { SummaryView } from './SummaryView';

/**
 * A compaction where it happened: its level, tokens before → after (estimated), the summary when one
 * was written, and a way to read what the model saw before it.
 */
export function CompactionCard(props: { item: CompactionItem; onViewVersion?(number: number): void }) {
  const { t, formatNumber } = useI18n();
  const { item } = props;
  const level = t(`context.level.${item.level ?? 'auto'}`);
  const reason = t(`context.reason.${item.reason}`);
  const tokens = (n: number | null) => (n === null ? '?' : formatNumber(n));
  // Cancelled or cut short with its turn: not a failure to alarm anyone with.
  const stopped = item.error?.code === 'cancelled' || item.error?.code === 'interrupted';
  const line =
    item.state === 'running'
      ? t('context.card.running', { level })
      : item.state === 'failed'
        ? stopped
          ? t('context.card.stopped')
          : t('context.card.failed', { message: item.error?.message ?? '' })
        : t('context.card.done', {
            level,
            reason,
            before: tokens(item.tokensBefore),
            after: tokens(item.tokensAfter),
          });
  return (
    <section className={`tool-card compaction-card ${item.state}`} data-testid="compaction-card">
      <CardHeading
        icon="⇣"
        title={<span className="tool-card-name">{t('context.card.title')}</span>}
        status={item.state === 'running' ? { label: t('tool.status.running'), tone: 'running' } : null}
      />
      <div className="tool-card-body">
        {/* Always a live region, so the outcome is announced when the running line turns into it. */}
        <p className="compaction-line" aria-live="polite">
          {line}
        </p>
        {item.state === 'failed' && !stopped && <p className="muted">{t('context.card.failedHint')}</p>}
        {item.summary && (
          <details className="compaction-summary">
            <summary>{t('context.card.summary')}</summary>
            <SummaryView summary={item.summary} />
          </details>
        )}
        {item.state === 'done' && item.parent !== null && props.onViewVersion && (
          <button
            type="button"
            className="link-button"
            onClick={() => item.parent !== null && props.onViewVersion?.(item.parent)}
          >
            {t('context.card.before')}
          </button>
        )}
      </div>
    </section>
  );
}
