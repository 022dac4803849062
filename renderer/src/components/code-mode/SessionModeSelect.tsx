import type { CairnClient } from '../../../../sidecar/src/client';
import { type Session, SessionMode } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { SessionSettingSelect } from '../SessionSettingSelect';

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
  const { session } = props;
  const running = props.running || session.running_turn_id !== null;
  return (
    <SessionSettingSelect
      client={props.client}
      session={session}
      field="mode"
      options={SessionMode.options}
      label={t('session.mode')}
      optionLabel={(mode) => t(`session.mode.${mode}`)}
      optionHint={(mode) => t(`session.mode.${mode}.hint`)}
      title={running ? t('session.mode.running') : t(`session.mode.${session.mode}.hint`)}
      className="approval-select mode-select"
      disabled={running}
      errorText={(message) => t('session.mode.error', { message })}
      onChanged={props.onChanged}
    />
  );
}
