import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useI18n } from '../../i18n/i18n';
import type { BackgroundController } from '../../state/background-controller';
import { isActive } from '../../state/background-view';
import { useWaiting } from '../../state/use-waiting';
import type { WaitingController } from '../../state/waiting-controller';
import { BackgroundCallRow } from './BackgroundCallRow';
import { LoadedToolList } from './LoadedToolList';
import { WaitingQuestions } from './WaitingQuestions';
import '../../i18n/messages/background';

/**
 * The side panel's background tasks: the approvals and questions that wait for the user outside the
 * running turn, the calls the agent (or its scripts) left running, with their newest output and Cancel,
 * the recently ended ones, and the tools the agent loaded. Kept live from the session's one event source
 * (through its BackgroundController and WaitingController).
 */
export function BackgroundPanel({
  controller,
  waiting,
}: {
  controller: BackgroundController;
  waiting: WaitingController;
}) {
  const { t, formatNumber } = useI18n();
  const { view, error } = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const asked = useWaiting(waiting);
  // Closed while empty; opened once when something first shows, then as the user leaves it, except that
  // a new question waiting here opens it again.
  const [open, setOpen] = useState(false);
  const autoOpened = useRef(false);
  const calls = view?.calls ?? [];
  const tools = view?.tools ?? [];
  const something = calls.length + tools.length + asked.questions.length > 0;
  useEffect(() => {
    if (autoOpened.current || !something) return;
    autoOpened.current = true;
    setOpen(true);
  }, [something]);
  const seen = useRef(new Set<string>());
  useEffect(() => {
    const fresh = asked.questions.filter((q) => !seen.current.has(q.id));
    for (const q of fresh) seen.current.add(q.id);
    if (fresh.length > 0) setOpen(true);
  }, [asked.questions]);
  const running = calls.filter((c) => isActive(c.call)).length;
  const waitingCount = asked.questions.length;

  return (
    <details
      className="panel-section background-panel"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <h2>{t('background.title')}</h2>
        {view && <span className="muted">{t('background.running', { count: formatNumber(running) })}</span>}
        {waitingCount > 0 && (
          <span className="background-waiting-badge">
            {t('background.waiting.count', { count: formatNumber(waitingCount) })}
          </span>
        )}
      </summary>
      <section aria-label={t('background.title')}>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {asked.error && (
          <p className="error-text" role="alert">
            {asked.error}
          </p>
        )}
        <WaitingQuestions questions={asked.questions} onAnswer={waiting.answer} />
        {view && calls.length === 0 && <p className="muted">{t('background.empty')}</p>}
        <ul className="background-calls">
          {calls.map((item) => (
            <BackgroundCallRow
              key={item.call.id}
              item={item}
              awaitingApproval={asked.awaiting.has(item.call.id)}
              onReadTail={controller.readTail}
              onCancel={controller.cancel}
            />
          ))}
        </ul>
        <h3 className="background-subtitle">{t('background.tools.title')}</h3>
        {view && <LoadedToolList tools={tools} />}
      </section>
    </details>
  );
}
