import type { ContextInfo } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { shortTokens } from './token-format';

/**
 * The header's gauge: the next request's estimated tokens against the usable window, with a tick at
 * the automatic-compaction threshold. Clicking it opens the context view.
 */
export function ContextMeter(props: { info: ContextInfo | null; onOpen(): void }) {
  const { t, locale, formatNumber } = useI18n();
  const { info } = props;
  if (!info) return null;
  const share = (n: number) => `${Math.min(100, (100 * n) / Math.max(1, info.usable_window)).toFixed(1)}%`;
  const over = info.threshold_tokens !== null && info.estimated_tokens >= info.threshold_tokens;
  const threshold =
    info.threshold_tokens === null
      ? t('context.meterOff')
      : t('context.meterThreshold', { tokens: formatNumber(info.threshold_tokens) });
  return (
    <button
      type="button"
      className={`context-meter${over ? ' over' : ''}`}
      data-testid="context-meter"
      aria-label={t('context.meterLabel', {
        tokens: formatNumber(info.estimated_tokens),
        window: formatNumber(info.usable_window),
        threshold,
      })}
      onClick={props.onOpen}
    >
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: share(info.estimated_tokens) }} />
        {info.threshold_tokens !== null && (
          <span className="context-meter-threshold" style={{ left: share(info.threshold_tokens) }} />
        )}
      </span>
      <span className="context-meter-text" aria-hidden="true">
        {t('context.meter', {
          tokens: shortTokens(info.estimated_tokens, locale),
          window: shortTokens(info.usable_window, locale),
        })}
      </span>
    </button>
  );
}
