import type { Turn } from '../../../sidecar/src/protocol';
import { useI18n } from '../i18n/i18n';
import { formatCost } from './cost-format';

/**
 * A finished turn's tokens, quietly, with what the prompt cache served and stored when it did, and its
 * estimated cost when the model configuration has prices.
 */
export function TurnUsage({ turn }: { turn: Turn }) {
  const { t, formatNumber, locale } = useI18n();
  const usage = turn.usage;
  if (turn.status === 'running' || !usage) return null;
  const cached = usage.cache_read_input_tokens > 0 || usage.cache_creation_input_tokens > 0;
  const values = {
    input: formatNumber(usage.input_tokens),
    output: formatNumber(usage.output_tokens),
    read: formatNumber(usage.cache_read_input_tokens),
    written: formatNumber(usage.cache_creation_input_tokens),
  };
  return (
    <p className="turn-usage">
      <span title={t('conversation.usageLabel')}>
        {t(cached ? 'conversation.usageCached' : 'conversation.usage', values)}
      </span>
      {turn.cost !== null && (
        <span className="turn-cost" title={t('cost.label')}>
          {t('cost.turn', { cost: formatCost(locale, turn.cost) })}
        </span>
      )}
    </p>
  );
}
