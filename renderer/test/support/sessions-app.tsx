import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { App } from '../../src/components/App';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { BACKEND } from './sessions-backend';

/** The whole app against the stubbed backend (stubSessionsBackend). */
export function renderApp(locale: Locale = 'en') {
  render(
    <I18nProvider locale={locale}>
      <App
        backend={BACKEND}
        desktop={null}
        onDisconnect={() => undefined}
        onBackendChanged={() => undefined}
        onBackendLost={() => undefined}
      />
    </I18nProvider>,
  );
}

/** Clicks a session in the sidebar and waits for its conversation. */
export async function openSession(title: string) {
  const nav = await screen.findByRole('navigation');
  fireEvent.click(await within(nav).findByRole('button', { name: title }));
  await screen.findByRole('heading', { name: title, level: 1 });
}

/** A turn's row in the conversation, once it is rendered. */
export const turnRow = async (id: string) =>
  waitFor(() => {
    const row = document.querySelector<HTMLElement>(`[data-turn-id="${id}"]`);
    if (!row) throw new Error(`turn ${id} is not shown`);
    return row;
  });

/**
 * happy-dom lays nothing out: a transcript with a height and turns as tall as the list estimates, so the
 * virtual list renders turns and scrolling to one shows it. Also cleans up after each test.
 */
export function withLayout() {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(160);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
