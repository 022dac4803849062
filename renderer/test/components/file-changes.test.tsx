// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { FileChange, Turn } from '../../../sidecar/src/protocol';
import { RevertCard } from '../../src/components/changes/RevertCard';
import { TurnChanges } from '../../src/components/changes/TurnChanges';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { turnFromTurn } from '../../src/state/turn-view';
import { storedTurn } from '../support/tool-calls';

// The row under a turn that changed files: the count, the files and their diffs read once on unfolding,
// "Show all" past the first fifty, the server's note when the files were not recorded (and no revert then),
// and the revert dialog's conflict and forced revert, against the API's answers as the sidecar gives them.

const { messages: _m, tool_calls: _c, questions: _q, compactions: _v, ...base } = storedTurn('t1', []);
const turn = (patch: Partial<Turn>): Turn => ({ ...base, ordinal: 3, files_recorded: true, ...patch });

const change = (path: string, patch: Partial<FileChange> = {}): FileChange => ({
  path,
  status: 'modified',
  diff: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old line\n+new line\n`,
  binary: false,
  too_large: false,
  additions: 1,
  deletions: 1,
  ...patch,
});

/** The changes and revert routes of one turn; the revert refuses with a conflict until forced. */
function fakeSidecar(changes: FileChange[]) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : null;
    requests.push({ method, path, body });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/turns/t1/changes') return json({ changes, recorded: true, note: null });
    if (path === '/api/turns/t1/revert' && !body?.force) {
      const error = { code: 'conflict', message: 'changed since', details: { paths: ['notes.md'] } };
      return json({ error }, 409);
    }
    if (path === '/api/turns/t1/revert')
      return json({ turn: turn({ id: 't2', kind: 'revert' }), restored: [], not_restored: [] });
    return json({ error: { code: 'not_found', message: `${path} not found` } }, 404);
  };
  return { requests, client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch) };
}

function show(t: Turn, changes: FileChange[], options: { locale?: Locale; disabled?: boolean } = {}) {
  const sidecar = fakeSidecar(changes);
  const view = render(
    <I18nProvider locale={options.locale ?? 'en'}>
      <TurnChanges turn={t} client={sidecar.client} revert={{ disabled: options.disabled ?? false }} />
    </I18nProvider>,
  );
  return { ...sidecar, view };
}

afterEach(() => cleanup());

describe('TurnChanges', () => {
  it('shows nothing for a turn that changed no file, was not recorded, or is running', () => {
    for (const t of [
      turn({ files_changed: 0 }),
      turn({ files_changed: null }),
      turn({ files_changed: 2, status: 'running' }),
    ]) {
      const { view } = show(t, []);
      expect(view.container.textContent).toBe('');
      view.unmount();
    }
  });

  it('says why the files were not recorded, and offers no revert where they were not', () => {
    const note = 'The project has more than 100,000 files; Cairn does not record so many.';
    const unrecorded = show(turn({ files_recorded: false, files_changed: null, files_note: note }), []);
    expect(unrecorded.view.container.querySelector('.turn-changes-files-note')?.textContent).toBe(note);
    expect(screen.queryByRole('button')).toBeNull();
    unrecorded.view.unmount();

    // An imported turn: its count came with it, but this machine has no recording to restore.
    show(turn({ files_recorded: false, files_changed: 2 }), []);
    expect(screen.getByRole('button', { name: /2 files changed/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Undo these file changes/ })).toBeNull();
  });

  it('reads the files once on unfolding: status in words, counts, a diff, binary and too large', async () => {
    const { requests } = show(turn({ files_changed: 3 }), [
      change('src/app.ts', { additions: 4, deletions: 2 }),
      change('logo.png', { status: 'added', diff: null, binary: true, additions: 0, deletions: 0 }),
      change('data.csv', { status: 'deleted', diff: null, too_large: true, additions: 0, deletions: 0 }),
    ]);
    const toggle = screen.getByRole('button', { name: /3 files changed/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const list = await screen.findByRole('list', { name: 'Files changed' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.file-change-status')?.textContent)).toEqual([
      'Modified',
      'Added',
      'Deleted',
    ]);
    expect(rows[0]!.querySelector('.file-change-path')?.textContent).toBe('src/app.ts');
    expect(rows[0]!.textContent).toContain('+4 −2');

    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Diff of src/app.ts' }));
    const diff = rows[0]!.querySelector('.diff-view')!;
    expect(diff.querySelector('.diff-line--removed')?.textContent).toContain('old line');
    expect(diff.querySelector('.diff-line--added')?.textContent).toContain('new line');
    expect(diff.textContent).not.toContain('+++');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Diff of logo.png' }));
    expect(rows[1]!.textContent).toContain('Binary file — no diff');
    fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Diff of data.csv' }));
    expect(rows[2]!.textContent).toContain('Too large to show');

    // Folded and unfolded again: the list is not read twice.
    fireEvent.click(toggle);
    fireEvent.click(toggle);
    await screen.findByRole('list', { name: 'Files changed' });
    expect(requests.filter((r) => r.path.endsWith('/changes'))).toHaveLength(1);
  });

  it('lists the first fifty files, then all on "Show all"', async () => {
    const many = Array.from({ length: 60 }, (_, i) => change(`f${String(i).padStart(2, '0')}.txt`));
    show(turn({ files_changed: 60 }), many);
    fireEvent.click(screen.getByRole('button', { name: /60 files changed/ }));
    const list = await screen.findByRole('list', { name: 'Files changed' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 60' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(60);
  });

  it('asks before reverting, lists the conflicting files, and reverts anyway with force', async () => {
    const { requests } = show(turn({ files_changed: 1 }), [change('notes.md')]);
    fireEvent.click(screen.getByRole('button', { name: /Undo these file changes/ }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toContain('before turn 3');
    expect(ask.textContent).toContain('The conversation is kept');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(ask).getByRole('button', { name: 'Undo file changes' }));

    const conflict = await screen.findByRole('alertdialog', { name: /changed since Cairn recorded them/ });
    expect(within(conflict).getByRole('listitem').textContent).toBe('notes.md');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(conflict).getByRole('button', { name: 'Revert anyway' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { force: false },
      { force: true },
    ]);
  });

  it('cannot revert while a turn runs, and speaks Chinese', () => {
    show(turn({ files_changed: 2 }), [], { locale: 'zh-CN', disabled: true });
    expect(screen.getByRole('button', { name: /改动了 2 个文件/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /撤销这些文件改动/ }).hasAttribute('disabled')).toBe(true);
  });

  it('shows a revert as a card: the turn it restored to, what it could not put back, and its undo', () => {
    const { client } = fakeSidecar([]);
    const revert = turn({
      id: 't2',
      kind: 'revert',
      reverted_turn_id: 't1',
      prompt: 'Restore files to before turn 3',
      files_changed: 1,
      not_restored: [{ path: 'big.bin', reason: 'too large to keep' }],
    });
    const card = (t: Turn, revertedOrdinal?: number) => (
      <I18nProvider locale="en">
        <RevertCard
          view={turnFromTurn(t)}
          client={client}
          revert={{ disabled: false }}
          revertedOrdinal={revertedOrdinal}
        />
      </I18nProvider>
    );
    const view = render(card(revert));
    expect(screen.getByText('Files restored to before turn 3')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('big.bin — too large to keep');
    expect(screen.getByRole('button', { name: '1 file changed' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Undo this revert/ }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Undo this revert?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    // The reverted turn, when loaded, says its ordinal: the prompt is the server's wording, not parsed then.
    view.rerender(card({ ...revert, prompt: 'Dateien wiederhergestellt' }, 1));
    expect(screen.getByText('Files restored to before turn 1')).toBeTruthy();
    view.rerender(card({ ...revert, prompt: 'Dateien wiederhergestellt' }));
    expect(screen.getByText('Files restored')).toBeTruthy();

    // A revert whose files were not recorded here (imported) cannot be undone here.
    view.rerender(card({ ...revert, files_recorded: false }));
    expect(screen.queryByRole('button', { name: /Undo this revert/ })).toBeNull();
  });
});
