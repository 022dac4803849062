// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../support/lazy-bodies';

// Only English ships with the first screen; the zh-CN strings are a chunk of their own (a dynamic import).
// Each test takes a fresh copy of the i18n module, so no locale is loaded yet when it starts.
type I18nModule = typeof import('../../src/i18n/i18n');

/** Records every title it renders, so a test can tell whether English was ever on screen. */
function Probe({ i18n, seen }: { i18n: I18nModule; seen: string[] }) {
  const { t, setLocale } = i18n.useI18n();
  const title = t('sidebar.settings');
  seen.push(title);
  return (
    <button type="button" onClick={() => setLocale('zh-CN')}>
      {title}
    </button>
  );
}

async function freshI18n() {
  vi.resetModules();
  const i18n = await import('../../src/i18n/i18n');
  const seen: string[] = [];
  return { i18n, seen, probe: <Probe i18n={i18n} seen={seen} /> };
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('loading a locale', () => {
  it('starts in English without fetching the Chinese strings', async () => {
    const { i18n, seen, probe } = await freshI18n();
    render(<i18n.I18nProvider locale="en">{probe}</i18n.I18nProvider>);
    expect(screen.getByRole('button').textContent).toBe('Settings');
    expect(i18n.isLocaleLoaded('zh-CN')).toBe(false);
    expect(seen).not.toContain('设置');
  });

  it('starts in a saved Chinese locale showing nothing until its strings arrive, never English first', async () => {
    localStorage.setItem('cairn.locale', 'zh-CN');
    const { i18n, seen, probe } = await freshI18n();
    const { container } = render(<i18n.I18nProvider>{probe}</i18n.I18nProvider>);
    expect(container.textContent).toBe('');
    expect((await screen.findByRole('button')).textContent).toBe('设置');
    expect(seen).not.toContain('Settings');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('keeps English on screen until the chosen Chinese strings arrive, and remembers the choice', async () => {
    const { i18n, seen, probe } = await freshI18n();
    render(<i18n.I18nProvider>{probe}</i18n.I18nProvider>);
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button').textContent).toBe('Settings');
    expect(localStorage.getItem('cairn.locale')).toBe('zh-CN');
    await screen.findByText('设置');
    expect(seen.filter((title) => title !== 'Settings').every((title) => title === '设置')).toBe(true);
  });

  it('renders Chinese at once when the strings were loaded first (as tests do)', async () => {
    const { i18n, probe } = await freshI18n();
    await i18n.loadLocale('zh-CN');
    render(<i18n.I18nProvider locale="zh-CN">{probe}</i18n.I18nProvider>);
    expect(screen.getByRole('button').textContent).toBe('设置');
  });
});
