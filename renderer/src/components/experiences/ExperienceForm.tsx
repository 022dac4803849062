import { useState } from 'react';
import type { ExperienceScope } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/context-panel';

/** Adds an experience, for this session or (when it has a project) every session of the project. */
export function ExperienceForm(props: {
  projectScope: boolean;
  onAdd(text: string, scope: ExperienceScope): Promise<boolean>;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [scope, setScope] = useState<ExperienceScope>('session');
  const [empty, setEmpty] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="experience-form"
      aria-label={t('experiences.new')}
      onSubmit={async (e) => {
        e.preventDefault();
        if (text.trim() === '') return setEmpty(true);
        setBusy(true);
        const added = await props.onAdd(text.trim(), scope);
        setBusy(false);
        if (added) setText('');
      }}
    >
      <label>
        <span>{t('experiences.new')}</span>
        <textarea
          value={text}
          rows={2}
          onChange={(e) => {
            setText(e.target.value);
            setEmpty(false);
          }}
        />
      </label>
      {empty && (
        <p className="error-text" role="alert">
          {t('experiences.emptyText')}
        </p>
      )}
      {props.projectScope && (
        <label>
          <span>{t('experiences.scope')}</span>
          <select value={scope} onChange={(e) => setScope(e.target.value as ExperienceScope)}>
            <option value="session">{t('experiences.scope.session')}</option>
            <option value="project">{t('experiences.scope.project')}</option>
          </select>
        </label>
      )}
      <button type="submit" className="primary-button" disabled={busy}>
        {t('experiences.add')}
      </button>
    </form>
  );
}
