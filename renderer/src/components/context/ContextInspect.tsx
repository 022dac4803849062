import { useState } from 'react';
import type { ContextInfo, ContextUnit } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import type { CompactLevel, CompactNow } from '../../state/use-compact-now';
import { SessionInstructions } from './SessionInstructions';
import '../../i18n/messages/context-panel';

const LEVELS: readonly CompactLevel[] = ['auto', 'block', 'loop', 'turn', 'session'];

/** The next request's size, window and threshold, "compact now", and the units it is made of. */
export function ContextInspect(props: {
  info: ContextInfo | null;
  /** The units of the next request; null while they load. */
  units: readonly ContextUnit[] | null;
  compaction: CompactNow;
  /** A turn is running: it compacts its own context, so "compact now" waits. */
  turnRunning: boolean;
  /** A fork's context is only read: no "compact now". */
  readOnly?: boolean;
}) {
  const { t, formatNumber } = useI18n();
  const { info, compaction } = props;
  const [level, setLevel] = useState<CompactLevel>('auto');
  const outcome = compaction.outcome;
  const outcomeText =
    outcome === null
      ? null
      : outcome.kind === 'done'
        ? t('context.compacted', {
            version: outcome.response.compacted.number,
            before: formatNumber(outcome.response.compacted.tokens_before ?? 0),
            after: formatNumber(outcome.response.compacted.tokens_after ?? 0),
          })
        : outcome.code === 'turn_running'
          ? t('context.busy')
          : outcome.code === 'cancelled'
            ? t('context.compactCancelled')
            : outcome.message;
  const ok = outcome !== null && (outcome.kind === 'done' || outcome.code === 'cancelled');

  if (!info) return null;
  const addition = info.system_prompt_addition;
  return (
    <section className="context-inspect">
      <p>
        {t('context.summaryLine', {
          version: info.version,
          tokens: formatNumber(info.estimated_tokens),
          window: formatNumber(info.usable_window),
        })}
      </p>
      <p className="muted">
        {info.threshold_tokens === null || info.compact_threshold === null
          ? t('context.thresholdOff')
          : t('context.thresholdLine', {
              tokens: formatNumber(info.threshold_tokens),
              percent: Math.round(info.compact_threshold * 100),
            })}
      </p>
      {info.compaction_pending && <p role="status">{t('context.pending')}</p>}
      {addition !== null && addition.trim() !== '' && <SessionInstructions text={addition} />}
      {!props.readOnly && (
        <div className="context-compact">
          <label>
            <span>{t('context.compactLevel')}</span>
            <select value={level} onChange={(e) => setLevel(e.target.value as CompactLevel)}>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {t(`context.level.${l}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="primary-button"
            disabled={compaction.busy || props.turnRunning}
            title={props.turnRunning ? t('context.busy') : undefined}
            onClick={() => void compaction.compact(level)}
          >
            {compaction.busy ? t('context.compacting') : t('context.compactNow')}
          </button>
          {compaction.busy && (
            <button type="button" onClick={compaction.cancel}>
              {t('context.compactCancel')}
            </button>
          )}
        </div>
      )}
      {outcomeText !== null && (
        <p className={ok ? 'muted' : 'error-text'} role={ok ? 'status' : 'alert'}>
          {outcomeText}
        </p>
      )}
      <h3>{t('context.units')}</h3>
      {props.units === null ? (
        <p className="muted">{t('common.loading')}</p>
      ) : props.units.length === 0 ? (
        <p className="muted">{t('context.unitsEmpty')}</p>
      ) : (
        <ol className="context-units">
          {props.units.map((unit) => (
            <li key={unit.ref} className={`context-unit ${unit.level}`} data-ref={unit.ref}>
              <code>{unit.ref}</code>
              <span>{t(`context.unit.${unit.role}`)}</span>
              <span>{t(`context.unit.${unit.kind}`)}</span>
              <span className="context-unit-level">{t(`context.level.${unit.level}`)}</span>
              <span className="context-unit-tokens">
                {t('context.unitTokens', { tokens: formatNumber(unit.tokens) })}
              </span>
              {unit.protected && (
                <span className="context-unit-kept" title={t('context.unit.protectedHint')}>
                  {t('context.unit.protected')}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
