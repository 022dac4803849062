import { useI18n } from '../../i18n/i18n';
import type { ToolProgress } from '../../state/tool-items';
import '../../i18n/messages/tool-cards';

/** The part done, 0 to 1, when the total is known and positive; null otherwise (a count only). */
export function progressFraction(p: ToolProgress): number | null {
  if (p.total === null || !(p.total > 0)) return null;
  return Math.min(1, Math.max(0, p.progress / p.total));
}

function useProgressLabel(p: ToolProgress): string {
  const { t, formatNumber } = useI18n();
  return p.total !== null && progressFraction(p) !== null
    ? t('tool.progress.fraction', { progress: formatNumber(p.progress), total: formatNumber(p.total) })
    : t('tool.progress.count', { count: formatNumber(p.progress) });
}

/** The collapsed card's short form: "3 of 10", or "42 so far" without a total. */
export function ProgressBadge({ progress }: { progress: ToolProgress }) {
  return (
    <span className="tool-card-badge tool-card-badge--progress" data-testid="tool-progress-badge">
      {useProgressLabel(progress)}
    </span>
  );
}

/** The open card's: a bar when the total is known, the count, and the server's message (as text). */
export function ProgressView({ progress, label }: { progress: ToolProgress; label: string }) {
  const text = useProgressLabel(progress);
  const fraction = progressFraction(progress);
  return (
    <div className="tool-progress" data-testid="tool-progress">
      {fraction !== null && (
        <progress className="tool-progress-bar" value={fraction} max={1} aria-label={label} />
      )}
      <span className="tool-progress-count">{text}</span>
      {progress.message && <span className="tool-progress-message">{progress.message}</span>}
    </div>
  );
}
