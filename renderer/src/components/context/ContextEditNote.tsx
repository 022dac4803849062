import { useT } from '../../i18n/i18n';

/** A one-line note where the agent edited its own context, with a way to read the version it wrote. */
export function ContextEditNote(props: { version: number; onViewVersion?(number: number): void }) {
  const t = useT();
  const { version, onViewVersion } = props;
  return (
    <p className="context-edit-note" data-testid="context-edit-note">
      {t('context.edited', { version })}
      {onViewVersion && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={() => onViewVersion(version)}>
            {t('context.edited.view')}
          </button>
        </>
      )}
    </p>
  );
}
