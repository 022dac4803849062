// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as lazyParts from '../../src/components/lazy-parts';
import { withPartBoundary } from '../../src/components/PartBoundary';
import { CARD_BODIES } from '../../src/components/tool-cards/card-bodies';
import { I18nProvider } from '../../src/i18n/i18n';
import '../support/lazy-bodies';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// What a browser throws when a served chunk is gone (the UI was rebuilt while an old tab stayed open).
const CHUNK_ERROR = 'Failed to fetch dynamically imported module: http://x/assets/CodeBody-Ab12.js';

function Missing(_: { label: string }): never {
  throw new Error('unreachable');
}

describe('a part that fails to load', () => {
  it('says so in its own box with a Reload, and the rest of the window stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = withPartBoundary(
      lazy(() => Promise.reject<{ default: typeof Missing }>(new Error(CHUNK_ERROR))),
    );
    render(
      <I18nProvider locale="zh-CN">
        <p>the conversation</p>
        <Suspense fallback={<p>opening</p>}>
          <Broken label="x" />
        </Suspense>
      </I18nProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`窗口的这一部分无法加载：${CHUNK_ERROR}`);
    expect(screen.getByRole('button', { name: '重新加载' })).toBeTruthy();
    expect(screen.getByText('the conversation')).toBeTruthy();
  });

  it('is how every card body and every lazily loaded part is made', () => {
    for (const body of Object.values(CARD_BODIES)) expect(body.displayName).toMatch(/^Bounded\(/);
    for (const part of Object.values(lazyParts)) {
      expect((part as { displayName?: string }).displayName).toMatch(/^Bounded\(/);
    }
  });
});
