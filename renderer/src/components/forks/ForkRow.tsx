import type { ForkInfo, ForkStatus } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { useDurationFormat, useNow } from '../use-elapsed';
import { ForkResponse } from './ForkResponse';

const WAITING: ReadonlySet<ForkStatus> = new Set(['queued', 'running']);

/** One fork: its task, status (with the time since it was spawned while it waits or runs), and response. */
export function ForkRow(props: { fork: ForkInfo; onOpen?(forkId: string): void }) {
  const t = useT();
  const { fork, onOpen } = props;
  const active = WAITING.has(fork.status);
  const now = useNow(active);
  const formatDuration = useDurationFormat();
  const elapsed = active ? formatDuration(now - Date.parse(fork.created_at), true) : null;
  return (
    <li className={`fork-row fork-row--${fork.status}`} data-fork-id={fork.fork_id}>
      <div className="fork-row-head">
        <span className="fork-row-task" title={fork.task}>
          {fork.task}
        </span>
        <span className={`fork-status fork-status--${fork.status}`}>
          {fork.status === 'running' && <span className="fork-spinner" aria-hidden="true" />}
          {t(`fork.status.${fork.status}`)}
        </span>
        {elapsed !== null && <span className="fork-row-elapsed">{elapsed}</span>}
        {onOpen && (
          <button
            type="button"
            className="link-button fork-row-open"
            aria-label={t('fork.openLabel', { task: fork.task })}
            onClick={() => onOpen(fork.fork_id)}
          >
            {t('fork.open')}
          </button>
        )}
      </div>
      {fork.response !== null && fork.response !== '' && (
        <ForkResponse text={fork.response} failed={fork.status === 'failed'} />
      )}
    </li>
  );
}
