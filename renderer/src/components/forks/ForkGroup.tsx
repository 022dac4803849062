import { useId } from 'react';
import type { ForkInfo } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { ForkRow } from './ForkRow';

/** The forks one turn spawned, under it: a row each with its status and final response. */
export function ForkGroup(props: { forks: readonly ForkInfo[]; onOpen?(forkId: string): void }) {
  const { t, formatNumber } = useI18n();
  const titleId = useId();
  return (
    <section className="fork-group" aria-labelledby={titleId} data-testid="fork-group">
      <h3 className="fork-group-title">
        <span id={titleId}>{t('fork.group.title')}</span>
        <span className="fork-group-count">
          {t('fork.group.count', { count: formatNumber(props.forks.length) })}
        </span>
      </h3>
      <ul className="fork-list" aria-label={t('fork.group.label')}>
        {props.forks.map((fork) => (
          <ForkRow key={fork.fork_id} fork={fork} onOpen={props.onOpen} />
        ))}
      </ul>
    </section>
  );
}
