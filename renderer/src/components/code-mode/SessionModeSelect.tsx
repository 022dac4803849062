import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { type Session, SessionMode } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';

/**
 * The session's mode (tools or code), switched between turns: the server refuses a switch while a turn
 * runs (409) and code mode without a project or kernels (400); its sentence is shown.
 */
export function SessionModeSelect(props: {
  client: CairnClient;
  session: Session;
  /** A turn runs here: its loop was chosen at its start. */
  running: boolean;
  onChanged(): void;
}) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { session } = props;
  const running = props.running || session.running_turn_id !== null;
  return (
    <label className="approval-select mode-select">
      <span aria-hidden="true">{t('session.mode')}</span>
      <select
        aria-label={t('session.mode')}
        value={session.mode}
        disabled={running || saving}
        title={running ? t('session.mode.running') : t(`session.mode.${session.mode}.hint`)}
        onChange={async (e) => {
          setError(null);
          setSaving(true);
          try {
            await props.client.updateSession(session.id, { mode: SessionMode.parse(e.target.value) });
            props.onChanged();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setSaving(false);
          }
        }}
      >
        {SessionMode.options.map((mode) => (
          <option key={mode} value={mode} title={t(`session.mode.${mode}.hint`)}>
            {t(`session.mode.${mode}`)}
          </option>
        ))}
      </select>
      {error !== null && (
        <span className="mode-select-error" role="alert">
          {t('session.mode.error', { message: error })}
        </span>
      )}
    </label>
  );
}
