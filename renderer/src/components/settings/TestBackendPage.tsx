import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Backend } from '../../../../sidecar/src/client';
import { CHECK_STEPS, type CheckStep, checkBackend } from '../../api/backend-check';
import { useI18n } from '../../i18n/i18n';
import { modeLabel } from '../ConnectionScreen';
import '../../i18n/messages/backend';
import '../../i18n/messages/settings';

const MARKS: Record<CheckStep['status'], string> = {
  pending: '·',
  running: '…',
  ok: '✓',
  failed: '✕',
  skipped: '–',
};

/**
 * Settings → Test backend, for a remote server only: runs each check the app depends on and shows its
 * result, the server's version, the latency, and what to do about a failure.
 */
export function TestBackendPage({ backend, onBack }: { backend: Backend; onBack(): void }) {
  const { t, formatNumber } = useI18n();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [steps, setSteps] = useState<CheckStep[]>(() =>
    CHECK_STEPS.map((s) => ({ id: s, status: 'pending' })),
  );
  const [running, setRunning] = useState(false);
  const current = useRef<AbortController | null>(null);

  // The checks run again when the address or token change, not when an equal backend object is handed
  // down again (a reconnect re-reads it): a finished report must not restart under the reader.
  const { url, token } = backend;
  const start = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setRunning(true);
    void checkBackend(
      { url, token },
      {
        signal: controller.signal,
        onProgress: (next) => !controller.signal.aborted && setSteps(next),
      },
    ).finally(() => !controller.signal.aborted && setRunning(false));
  }, [url, token]);

  useEffect(() => {
    headingRef.current?.focus();
    start();
    // A check still going when the page closes stops and must not update it.
    return () => current.current?.abort();
  }, [start]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onBack();
  };

  const allOk = steps.every((s) => s.status === 'ok');
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere on the page goes back; the Back button is the control.
    <div className="settings-page" onKeyDown={onKeyDown}>
      <header className="settings-header">
        <h1 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="settings-title">
          {t('check.title')}
        </h1>
        <button type="button" className="settings-button" onClick={onBack}>
          {t('check.back')}
        </button>
      </header>
      <div className="settings-body">
        <section className="settings-section" aria-labelledby={`${id}-title`}>
          <p className="settings-description">
            {t('check.intro')} <span className="settings-mono settings-break">{backend.url}</span>
          </p>
          <ol className="settings-list" aria-label={t('check.title')}>
            {steps.map((step) => (
              <li key={step.id} className={`check-step check-${step.status}`} data-status={step.status}>
                <span className="check-mark" aria-hidden="true">
                  {MARKS[step.status]}
                </span>
                <div className="check-body">
                  <p className="check-title">
                    {t(`check.step.${step.id}`)}
                    <span className="check-status">{t(`check.status.${step.status}`)}</span>
                  </p>
                  {(step.status === 'ok' || step.status === 'failed') && (
                    <p className="check-meta">
                      {step.status === 'ok' && step.version && (
                        <span>{t('check.version', { version: step.version })}</span>
                      )}
                      {step.status === 'ok' && step.mode && (
                        <span>{t('connection.result.mode', { mode: modeLabel(t, step.mode) })}</span>
                      )}
                      {step.status === 'ok' && step.runtime && (
                        <span>{t('settings.about.runtimeValue', step.runtime)}</span>
                      )}
                      <span>{t('check.latency', { ms: formatNumber(Math.round(step.latencyMs)) })}</span>
                    </p>
                  )}
                  {step.status === 'failed' && (
                    <>
                      <p className="check-failure" data-failure={step.failure}>
                        {t(`check.failure.${step.failure}`)}
                      </p>
                      <p className="check-details">{t('check.details', { message: step.message })}</p>
                    </>
                  )}
                  {step.status === 'skipped' && <p className="check-meta">{t('check.skippedHint')}</p>}
                </div>
              </li>
            ))}
          </ol>
          <div className="check-summary" aria-live="polite">
            {!running && (allOk ? t('check.summary.ok') : t('check.summary.failed'))}
          </div>
          <div className="settings-actions">
            <button type="button" className="settings-button" onClick={start} disabled={running}>
              {running ? t('check.running') : t('check.again')}
            </button>
          </div>
        </section>
      </div>
    </div>
  );
}
