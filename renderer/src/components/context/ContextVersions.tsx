import type { CairnClient } from '../../../../sidecar/src/client';
import { useI18n } from '../../i18n/i18n';
import { useAsync } from '../../state/use-async';
import '../../i18n/messages/context-panel';

/** Versions that compacted nothing, by why they were written; any other is the session's start. */
const NO_LEVEL_KEYS: Record<string, string> = {
  agent_edit: 'context.versionEdited',
  fork: 'context.versionFork',
};

/** The session's context versions, newest first, each readable as the model saw it. */
export function ContextVersions(props: {
  client: CairnClient;
  sessionId: string;
  /** HEAD's number: the list is read again when it moves. */
  head: number | null;
  onView(number: number): void;
}) {
  const { t, formatNumber, formatDateTime } = useI18n();
  const { client, sessionId, head } = props;
  const { value, error } = useAsync(() => client.contextVersions(sessionId), [client, sessionId, head]);
  const tokens = (n: number | null) => (n === null ? '?' : formatNumber(n));
  return (
    <section className="context-versions">
      <h3>{t('context.versions')}</h3>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <ol reversed>
        {[...(value ?? [])].reverse().map((v) => (
          <li key={v.number} data-version={v.number}>
            <span>
              {v.level === null
                ? t(NO_LEVEL_KEYS[v.reason] ?? 'context.versionInitial', { number: v.number })
                : t('context.versionLine', {
                    number: v.number,
                    level: t(`context.level.${v.level}`),
                    reason: t(`context.reason.${v.reason}`),
                    before: tokens(v.tokens_before),
                    after: tokens(v.tokens_after),
                  })}
            </span>
            <span className="muted"> {formatDateTime(v.created_at)} </span>
            <button type="button" className="link-button" onClick={() => props.onView(v.number)}>
              {t('context.view')}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
