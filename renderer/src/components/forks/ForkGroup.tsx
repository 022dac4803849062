import { useId } from 'react';
import type { ForkInfo } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { CardHeading } from '../tool-cards/CardFrame';
import { ForkRow } from './ForkRow';

/** The forks one turn spawned, under it: a row each with its status and final response. */
export function ForkGroup(props: { forks: readonly ForkInfo[]; onOpen?(forkId: string): void }) {
  const { t, formatNumber } = useI18n();
  const titleId = useId();
  return (
    <section className="tool-card fork-group" aria-labelledby={titleId} data-testid="fork-group">
      <CardHeading
        icon="⑂"
        title={
          <h3 className="tool-card-name fork-group-title">
            <span id={titleId}>{t('fork.group.title')}</span>
          </h3>
        }
        summary={t('fork.group.count', { count: formatNumber(props.forks.length) })}
      />
      <div className="tool-card-body">
        <ul className="fork-list" aria-label={t('fork.group.label')}>
          {props.forks.map((fork) => (
            <ForkRow key={fork.fork_id} fork={fork} onOpen={props.onOpen} />
          ))}
        </ul>
      </div>
    </section>
  );
}
