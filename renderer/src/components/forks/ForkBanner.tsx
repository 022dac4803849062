import { useT } from '../../i18n/i18n';

/** Above a fork's conversation: whose fork it is, that it is read-only, and the way back to the parent. */
export function ForkBanner(props: { parentTitle: string | null; onOpenParent?(): void }) {
  const t = useT();
  return (
    <div className="banner fork-banner" role="note">
      <strong>
        {props.parentTitle === null
          ? t('fork.bannerNoParent')
          : t('fork.banner', { parent: props.parentTitle })}
      </strong>{' '}
      <span className="muted">{t('fork.banner.hint')}</span>{' '}
      {props.onOpenParent && (
        <button type="button" className="link-button" onClick={props.onOpenParent}>
          {t('fork.banner.back')}
        </button>
      )}
    </div>
  );
}
