// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../sidecar/src/protocol';
import { openSession, renderApp, withLayout } from '../support/sessions-app';
import { hit, PROJECT, session, stubSessionsBackend, turns } from '../support/sessions-backend';

// The app's search, branches, export and import against an in-memory backend: a hit opens its session at
// its turn (paged in when older than the first page) and highlights it; "Branch from here" opens the new
// session, which says where it came from, and the parent lists it; the session menu exports and imports.

const ALPHA = session({ id: 'a', title: 'Alpha', project_id: PROJECT.id });
const BETA = session({ id: 'b', title: 'Beta' });
// 31 turns: the first page holds a-t2…a-t31, so a-t1 must be paged in.
const HISTORY = { a: turns('a', 31), b: turns('b', 1) };

const key = (k: string, mods: { shiftKey?: boolean } = {}) => {
  const event = new KeyboardEvent('keydown', {
    key: k,
    ctrlKey: true,
    cancelable: true,
    bubbles: true,
    ...mods,
  });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
};

const shownRow = (id: string) => document.querySelector<HTMLElement>(`[data-turn-id="${id}"]`);

withLayout();

describe('search', () => {
  it('Ctrl+Shift+F searches everywhere; Enter opens the hit’s session at its turn, paged in and highlighted', async () => {
    const search = (q: URLSearchParams): SearchResult =>
      q.get('q') === 'needle'
        ? {
            hits: [
              hit({
                session_id: 'b',
                ref: 'm1',
                turn_id: 'b-t1',
                session_title: 'Beta',
                snippet: 'a needle in Beta',
                match_ranges: [{ start: 2, end: 8 }],
              }),
              hit({
                session_id: 'a',
                ref: 'm2',
                turn_id: 'a-t1',
                kind: 'tool_call',
                session_title: 'Alpha',
                // Text that looks like markup stays text: the ranges become <mark> elements, nothing is parsed.
                snippet: '<b>needle</b> & <img src=x onerror=alert(1)>',
                match_ranges: [{ start: 3, end: 9 }],
              }),
            ],
            next_before: null,
          }
        : { hits: [], next_before: null };
    const { seen } = stubSessionsBackend({ sessions: [ALPHA, BETA], turns: HISTORY, search });
    renderApp();
    await screen.findByRole('navigation', { name: 'Projects' });

    key('F', { shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Search' });
    const input = within(dialog).getByRole('combobox', { name: 'Search' });
    // Names and code are searched for, not spelled: no squiggles (and nothing sent to a spelling service).
    expect(input.getAttribute('spellcheck')).toBe('false');
    expect(document.activeElement).toBe(input);
    fireEvent.input(input, { target: { value: '  needle ' } });
    const options = await within(dialog).findAllByRole('option');
    expect(seen.filter((r) => r.path.startsWith('/api/search')).map((r) => r.path)).toEqual([
      '/api/search?q=needle&limit=20',
    ]);
    expect(options.map((o) => o.querySelector('.search-hit-kind')?.textContent)).toEqual([
      'Message',
      'Tool call',
    ]);
    expect([...options[0]!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['needle']);
    const unsafe = options[1]!.querySelector('.search-hit-snippet')!;
    expect(unsafe.textContent).toBe('<b>needle</b> & <img src=x onerror=alert(1)>');
    expect(unsafe.querySelector('b, img')).toBeNull();
    expect([...unsafe.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['needle']);

    // Down to Alpha's hit, up and down again, Enter.
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(input, { key: 'Enter' });

    await screen.findByRole('heading', { name: 'Alpha', level: 1 });
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
    await waitFor(() => expect(shownRow('a-t1')?.className).toContain('turn-highlight'));
    expect(seen.map((r) => r.path)).toContain('/api/sessions/a/turns?limit=30&before=2');
    expect(document.querySelectorAll('.turn-highlight')).toHaveLength(1);
  });

  it('Ctrl+F searches the open session and pages with Load more; without a session it is the browser’s find', async () => {
    const search = (q: URLSearchParams): SearchResult => {
      const page = q.get('before') === 'cursor-1' ? 2 : 1;
      return {
        hits: [
          hit({
            session_id: 'a',
            ref: `m${page}`,
            turn_id: page === 1 ? 'a-t31' : null,
            kind: page === 1 ? 'message' : 'kernel_cell',
            session_title: 'Alpha',
            snippet: `word on page ${page}`,
            match_ranges: [{ start: 0, end: 4 }],
          }),
        ],
        next_before: page === 1 ? 'cursor-1' : null,
      };
    };
    const { seen } = stubSessionsBackend({ sessions: [ALPHA, BETA], turns: HISTORY, search });
    renderApp();
    await screen.findByRole('navigation', { name: 'Projects' });
    expect(key('f').defaultPrevented).toBe(false);
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();

    await openSession('Alpha');
    expect(key('f').defaultPrevented).toBe(true);
    const dialog = await screen.findByRole('dialog', { name: 'Search' });
    const scope = within(dialog).getByRole('combobox', { name: 'Search in' }) as HTMLSelectElement;
    expect(scope.value).toBe('session');
    expect([...scope.options].map((o) => o.textContent)).toEqual([
      'This session',
      'This project',
      'All sessions',
    ]);
    fireEvent.input(within(dialog).getByRole('combobox', { name: 'Search' }), { target: { value: 'word' } });
    await within(dialog).findByText('page 1', { exact: false });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load more' }));
    await within(dialog).findByText('page 2', { exact: false });
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(seen.filter((r) => r.path.startsWith('/api/search')).map((r) => r.path)).toEqual([
      '/api/search?q=word&session_id=a&limit=20',
      '/api/search?q=word&session_id=a&limit=20&before=cursor-1',
    ]);

    fireEvent.change(scope, { target: { value: 'project' } });
    await waitFor(() =>
      expect(seen.at(-1)?.path).toBe(`/api/search?q=word&project_id=${PROJECT.id}&limit=20`),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load more' }));
    // A user's own kernel cell belongs to no turn: its session opens, with the side panel (the kernel's).
    expect(document.querySelector('.side-panel')).toBeNull();
    fireEvent.click(await within(dialog).findByText('page 2', { exact: false }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull());
    expect(document.querySelector('.side-panel')).not.toBeNull();
    expect(document.querySelector('.turn-highlight')).toBeNull();

    // A click outside closes it.
    key('F', { shiftKey: true });
    await screen.findByRole('dialog', { name: 'Search' });
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('dialog', { name: 'Search' })).toBeNull();
  });
});
