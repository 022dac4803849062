import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useI18n } from '../../i18n/i18n';
import type { BackgroundController } from '../../state/background-controller';
import { isActive } from '../../state/background-view';
import { BackgroundCallRow } from './BackgroundCallRow';
import { LoadedToolList } from './LoadedToolList';

/**
 * The side panel's background tasks: the calls the agent (or its scripts) left running, with their
 * newest output and Cancel, the recently ended ones, and the tools the agent loaded. Kept live from the
 * session's one event source (through its BackgroundController).
 */
export function BackgroundPanel({ controller }: { controller: BackgroundController }) {
  const { t, formatNumber } = useI18n();
  const { view, error } = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  // Closed while empty; opened once when something first shows, then as the user leaves it.
  const [open, setOpen] = useState(false);
  const autoOpened = useRef(false);
  const calls = view?.calls ?? [];
  const tools = view?.tools ?? [];
  const something = calls.length + tools.length > 0;
  useEffect(() => {
    if (autoOpened.current || !something) return;
    autoOpened.current = true;
    setOpen(true);
  }, [something]);
  const running = calls.filter((c) => isActive(c.call)).length;

  return (
    <details
      className="panel-section background-panel"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <h2>{t('background.title')}</h2>
        {view && <span className="muted">{t('background.running', { count: formatNumber(running) })}</span>}
      </summary>
      <section aria-label={t('background.title')}>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        {view && calls.length === 0 && <p className="muted">{t('background.empty')}</p>}
        <ul className="background-calls">
          {calls.map((item) => (
            <BackgroundCallRow
              key={item.call.id}
              item={item}
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
