import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n';
import type { CallResult } from './use-call-result';

/** A labelled part of a card's body (Command, Output, Arguments…). */
export function CardSection({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      className={className ? `tool-card-section ${className}` : 'tool-card-section'}
      aria-label={label}
    >
      <h4 className="tool-card-label">{label}</h4>
      {children}
    </section>
  );
}

/** While the whole result loads, or when it could not: a quiet line, and Retry after an error. */
export function ResultLoadState({ result, retry }: { result: CallResult; retry(): void }) {
  const { t, formatNumber } = useI18n();
  if (result.state === 'loading') {
    return (
      <p className="tool-card-note" role="status">
        {t('tool.fullLoading')}
      </p>
    );
  }
  if (result.state === 'loaded') {
    // No whole result is stored (its file is gone): the card shows the preview, and says so.
    const preview = result.call.preview ?? '';
    if (result.call.result !== null || preview === '') return null;
    return (
      <p className="tool-card-note" role="note">
        {t('tool.previewOnly', { count: formatNumber(preview.length) })}
      </p>
    );
  }
  if (result.state !== 'error') return null;
  return (
    <div className="tool-card-actions">
      <p className="tool-card-error" role="alert">
        {t('tool.fullError', { message: result.message })}
      </p>
      <button type="button" className="conv-button" onClick={retry}>
        {t('tool.fullRetry')}
      </button>
    </div>
  );
}
