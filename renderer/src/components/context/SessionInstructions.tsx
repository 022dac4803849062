import { useId } from 'react';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/context-panel';

/** The session's own addition to the system prompt, which the agent wrote: shown as it is, never edited here. */
export function SessionInstructions(props: { text: string }) {
  const t = useT();
  const titleId = useId();
  return (
    <section className="session-instructions" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('context.instructions.title')}</h3>
      <p className="muted">{t('context.instructions.hint')}</p>
      <pre className="session-instructions-text">{props.text}</pre>
    </section>
  );
}
