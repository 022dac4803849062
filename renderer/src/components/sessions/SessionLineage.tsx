import type { CairnClient } from '../../../../sidecar/src/client';
import type { Session, SessionDetail } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { useAsync } from '../../state/use-async';
import { formatCost } from '../cost-format';
import { MenuButton } from './MenuButton';

/**
 * Under the session header: where the session was branched from (a link to the parent at that turn), the
 * sessions branched from it, and its tokens and estimated cost so far. Nothing when there is none of these.
 */
export function SessionLineage(props: {
  client: CairnClient;
  session: Session;
  detail: SessionDetail | null;
  /** The ordinal of each of this session's loaded turns, for naming where a branch starts. */
  ordinals: ReadonlyMap<string, number>;
  onOpenAt(sessionId: string, turnId: string | null): void;
}) {
  const { t, formatNumber, locale } = useI18n();
  const from = props.session.branched_from;
  const branches = props.detail?.branches ?? [];
  const usage = props.detail?.usage ?? null;
  const tokens = usage
    ? usage.input_tokens +
      usage.output_tokens +
      usage.cache_read_input_tokens +
      usage.cache_creation_input_tokens
    : 0;
  if (!from && branches.length === 0 && tokens === 0) return null;
  return (
    <div className="session-lineage">
      {from && <BranchedFrom client={props.client} from={from} onOpenAt={props.onOpenAt} />}
      {branches.length > 0 && (
        <MenuButton
          className="link-button session-branches"
          label={
            branches.length === 1
              ? t('branch.count.one')
              : t('branch.count.other', { count: formatNumber(branches.length) })
          }
          menuLabel={t('branch.menu')}
          items={branches.map((b) => {
            const ordinal = props.ordinals.get(b.turn_id);
            return {
              key: b.session_id,
              label: ordinal === undefined ? b.title : t('branch.item', { title: b.title, ordinal }),
              onSelect: () => props.onOpenAt(b.session_id, null),
            };
          })}
        />
      )}
      {usage && tokens > 0 && (
        <span className="session-usage muted" title={t('cost.sessionLabel')}>
          {usage.cost === null
            ? t('cost.sessionTokens', { tokens: formatNumber(tokens) })
            : t('cost.session', { tokens: formatNumber(tokens), cost: formatCost(locale, usage.cost) })}
        </span>
      )}
    </div>
  );
}

/** "Branched from <parent> · turn N", a link to the parent at that turn; said plainly when the parent is gone. */
function BranchedFrom(props: {
  client: CairnClient;
  from: { session_id: string; turn_id: string };
  onOpenAt(sessionId: string, turnId: string | null): void;
}) {
  const { t } = useI18n();
  const { client, from } = props;
  const parent = useAsync(
    () => Promise.all([client.getSession(from.session_id), client.getTurn(from.turn_id)]),
    [client, from.session_id, from.turn_id],
  );
  if (parent.error) return <span className="session-branched-from muted">{t('branch.fromGone')}</span>;
  if (!parent.value) return null;
  const [session, turn] = parent.value;
  const values = { title: session.title, ordinal: turn.ordinal };
  return (
    <button
      type="button"
      className="link-button session-branched-from"
      title={t('branch.fromLabel', values)}
      onClick={() => props.onOpenAt(from.session_id, from.turn_id)}
    >
      <span aria-hidden="true">↳ </span>
      {t('branch.from', values)}
    </button>
  );
}
