import { useEffect, useRef, useState } from 'react';
import type { CompactRequest, ContextInfo } from '../../../../sidecar/src/protocol';
import { ApiError, type CairnClient } from '../../api/http-client';
import { useI18n } from '../../i18n/i18n';

const LEVELS = ['auto', 'block', 'loop', 'turn', 'session'] as const;
type Level = (typeof LEVELS)[number];

/** The next request's size, window and threshold, "compact now", and the units it is made of. */
export function ContextInspect(props: {
  client: CairnClient;
  sessionId: string;
  info: ContextInfo | null;
  onChanged(): void;
}) {
  const { t, formatNumber } = useI18n();
  const { info } = props;
  const [level, setLevel] = useState<Level>('auto');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  // Cancelling drops the request; the sidecar then stops the compaction and keeps the context as it was.
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const compact = async () => {
    setBusy(true);
    setOutcome(null);
    const controller = new AbortController();
    running.current = controller;
    try {
      const request: CompactRequest = { level };
      const done = await props.client.compactNow(props.sessionId, request, controller.signal);
      setOutcome({
        ok: true,
        text: t('context.compacted', {
          version: done.compacted.number,
          before: formatNumber(done.compacted.tokens_before ?? 0),
          after: formatNumber(done.compacted.tokens_after ?? 0),
        }),
      });
      props.onChanged();
    } catch (e) {
      const code = e instanceof ApiError ? e.code : null;
      const text =
        code === 'turn_running'
          ? t('context.busy')
          : code === 'cancelled'
            ? t('context.compactCancelled')
            : e instanceof Error
              ? e.message
              : String(e);
      setOutcome({ ok: code === 'cancelled', text });
    } finally {
      running.current = null;
      setBusy(false);
    }
  };

  if (!info) return null;
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
      <div className="context-compact">
        <label>
          <span>{t('context.compactLevel')}</span>
          <select value={level} onChange={(e) => setLevel(e.target.value as Level)}>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {t(`context.level.${l}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="primary-button" disabled={busy} onClick={() => void compact()}>
          {busy ? t('context.compacting') : t('context.compactNow')}
        </button>
        {busy && (
          <button type="button" onClick={() => running.current?.abort()}>
            {t('context.compactCancel')}
          </button>
        )}
      </div>
      {outcome && (
        <p className={outcome.ok ? 'muted' : 'error-text'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      )}
      <h3>{t('context.units')}</h3>
      {info.units.length === 0 ? (
        <p className="muted">{t('context.unitsEmpty')}</p>
      ) : (
        <ol className="context-units">
          {info.units.map((unit) => (
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
