import type { Turn } from '../../../sidecar/src/protocol';
import { useI18n, useT } from '../i18n/i18n';

/** A finished turn's tokens, quietly, with what the prompt cache served and stored when it did. */
export function TurnUsage({ turn }: { turn: Turn }) {
  const t = useT();
  const { formatNumber } = useI18n();
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
    <p className="turn-usage" title={t('conversation.usageLabel')}>
      {t(cached ? 'conversation.usageCached' : 'conversation.usage', values)}
    </p>
  );
}
