import { useState } from 'react';
import type { Experience, ExperienceScope } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { ConfirmDialog } from '../ConfirmDialog';
import { focusOnMount } from '../focus-on-mount';
import '../../i18n/messages/context-panel';

/** One experience: its text, scope and author, edited in place, moved between scopes, or deleted. */
export function ExperienceRow(props: {
  experience: Experience;
  /** The session has a project, so an experience can live at project scope. */
  projectScope: boolean;
  onSave(text: string): Promise<boolean>;
  onMove(scope: ExperienceScope): Promise<boolean>;
  onDelete(): Promise<boolean>;
}) {
  const t = useT();
  const { experience } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [moving, setMoving] = useState(false);
  const other: ExperienceScope = experience.scope === 'session' ? 'project' : 'session';

  const save = async () => {
    if (draft === null || draft.trim() === '') return;
    if (await props.onSave(draft.trim())) setDraft(null);
  };

  return (
    <li className="experience" data-scope={experience.scope}>
      {draft === null ? (
        <p className="experience-text">{experience.text}</p>
      ) : (
        <textarea
          aria-label={t('experiences.textLabel')}
          value={draft}
          rows={3}
          ref={focusOnMount}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            // Esc leaves the edit (and is not the composer's "cancel the turn").
            if (e.key === 'Escape') {
              e.preventDefault();
              setDraft(null);
            }
          }}
        />
      )}
      <p className="experience-meta muted">
        {t('experiences.meta', {
          scope: t(`experiences.scope.${experience.scope}`),
          author: t(experience.author === 'agent' ? 'experiences.byAgent' : 'experiences.byUser'),
        })}
      </p>
      <div className="experience-actions">
        {draft === null ? (
          <>
            <button type="button" onClick={() => setDraft(experience.text)}>
              {t('experiences.edit')}
            </button>
            {(props.projectScope || other === 'session') && (
              <button
                type="button"
                disabled={moving}
                onClick={async () => {
                  setMoving(true);
                  await props.onMove(other);
                  setMoving(false);
                }}
              >
                {t(other === 'project' ? 'experiences.toProject' : 'experiences.toSession')}
              </button>
            )}
            <button type="button" className="danger-button" onClick={() => setConfirming(true)}>
              {t('experiences.delete')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="primary-button" onClick={() => void save()}>
              {t('experiences.save')}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              {t('experiences.cancel')}
            </button>
          </>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          message={t('experiences.deleteConfirm')}
          confirmLabel={t('experiences.delete')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void props.onDelete();
          }}
        />
      )}
    </li>
  );
}
