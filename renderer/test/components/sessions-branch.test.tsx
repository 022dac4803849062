// @vitest-environment happy-dom
import '../support/zh-CN';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { openSession, renderApp, turnRow, withLayout } from '../support/sessions-app';
import { PROJECT, session, stubSessionsBackend, turns, WS } from '../support/sessions-backend';

// Branches, export/import and costs in the app: "Branch from here" opens a new session that says where it
// came from (a link back to that turn), the parent lists its branches; the session menu downloads the
// session as Markdown or JSON and imports an export into the open project; turns and the session show their
// estimated cost.

const ALPHA = session({ id: 'a', title: 'Alpha: notes/plan', project_id: PROJECT.id });
const HISTORY = { a: turns('a', 3) };

/** Downloads started through an anchor: the file name and the blob's text. */
function captureDownloads() {
  const blobs: Blob[] = [];
  const files: { name: string; text: Promise<string> }[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs[Number(this.href.split(':').at(-1)) - 1]!;
    files.push({ name: this.download, text: blob.text() });
  });
  return files;
}

function chooseFile(file: File, testId = 'import-session-file') {
  const input = screen.getByTestId(testId) as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  fireEvent.change(input);
}

const menu = (name: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'Session actions' }));
  fireEvent.click(
    within(screen.getByRole('menu', { name: 'Session actions' })).getByRole('menuitem', { name }),
  );
};

withLayout();

describe('branches', () => {
  it('branches from a turn, says where the branch came from, and lists it under the parent', async () => {
    const { seen } = stubSessionsBackend({ sessions: [ALPHA], turns: HISTORY });
    renderApp();
    await openSession(ALPHA.title);

    // Costs: the newest turn's, and the session's total, both labelled estimated.
    expect((await turnRow('a-t3')).querySelector('.turn-cost')?.textContent).toBe('≈ $0.0123 (estimated)');
    expect((await turnRow('a-t1')).querySelector('.turn-cost')).toBeNull();
    await waitFor(() =>
      expect(document.querySelector('.session-usage')?.textContent).toBe(
        '1,500 tokens · ≈ $0.0123 (estimated)',
      ),
    );

    const second = await turnRow('a-t2');
    fireEvent.click(within(second).getByRole('button', { name: 'Branch from here' }));
    await screen.findByRole('heading', { name: `${ALPHA.title} (branch)`, level: 1 });
    expect(seen.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/sessions/a/branch', body: { turn_id: 'a-t2' } },
    ]);
    // Listed in the sidebar (the list was read again), with only the turns up to the branch point.
    const nav = screen.getByRole('navigation');
    await within(nav).findByRole('button', { name: `${ALPHA.title} (branch)` });
    await turnRow('branch-1-a-t2');
    expect(document.querySelector('[data-turn-id="branch-1-a-t3"]')).toBeNull();

    const from = await screen.findByRole('button', { name: `Branched from ${ALPHA.title} · turn 2` });
    fireEvent.click(from);
    await screen.findByRole('heading', { name: ALPHA.title, level: 1 });
    await waitFor(async () => expect((await turnRow('a-t2')).className).toContain('turn-highlight'));

    fireEvent.click(await screen.findByRole('button', { name: '1 branch' }));
    const branches = screen.getByRole('menu', { name: 'Sessions branched from this one' });
    fireEvent.click(
      within(branches).getByRole('menuitem', { name: `${ALPHA.title} (branch) · from turn 2` }),
    );
    await screen.findByRole('heading', { name: `${ALPHA.title} (branch)`, level: 1 });
  });

  it('speaks Chinese', async () => {
    stubSessionsBackend({
      sessions: [
        ALPHA,
        session({ id: 'c', title: '分出', branched_from: { session_id: 'a', turn_id: 'a-t1' } }),
      ],
      turns: { ...HISTORY, c: [] },
    });
    renderApp('zh-CN');
    await openSession(ALPHA.title);
    expect(await screen.findByRole('button', { name: '1 个另开的会话' })).toBeTruthy();
    expect(within(await turnRow('a-t3')).getByRole('button', { name: '从这里另开会话' })).toBeTruthy();
    expect((await turnRow('a-t3')).querySelector('.turn-cost')?.textContent).toBe('≈ US$0.0123（估算）');
  });
});

describe('costs', () => {
  it('shows a turn’s estimated cost when it ends live, and the session’s total catches up', async () => {
    const { history, socket } = stubSessionsBackend({ sessions: [ALPHA], turns: HISTORY });
    renderApp();
    await openSession(ALPHA.title);
    await waitFor(() => expect(socket.openTo(WS)).toHaveLength(1));
    const live = socket.openTo(WS)[0]!;
    await waitFor(() =>
      expect(live.sent).toContainEqual({ type: 'subscribe', session_id: 'a', after_seq: 1 }),
    );

    // The server has priced the turn by the time it ends; the events carry only its tokens.
    const usage = {
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    const fourth = { ...turns('a', 4)[3]!, usage, cost: 0.5 };
    history.set('a', [...HISTORY.a, fourth]);
    const base = { session_id: 'a', turn_id: fourth.id, time: '2026-01-01T00:01:00.000Z' };
    live.receive({
      type: 'event',
      event: { ...base, seq: 2, type: 'turn.started', ordinal: 4, prompt: fourth.prompt },
    });
    await waitFor(() => expect(document.querySelector('.session-usage')?.textContent).toContain('$0.0123'));
    live.receive({ type: 'event', event: { ...base, seq: 3, type: 'turn.completed', usage } });

    await waitFor(async () =>
      expect((await turnRow(fourth.id)).querySelector('.turn-cost')?.textContent).toBe('≈ $0.50 (estimated)'),
    );
    await waitFor(() =>
      expect(document.querySelector('.session-usage')?.textContent).toBe(
        '1,650 tokens · ≈ $0.5123 (estimated)',
      ),
    );
  });
});

describe('export and import', () => {
  it('downloads the session as Markdown and JSON, and imports an export into the open project', async () => {
    const { seen } = stubSessionsBackend({ sessions: [ALPHA], turns: HISTORY });
    const files = captureDownloads();
    renderApp();
    await openSession(ALPHA.title);

    menu('Export as Markdown');
    menu('Export as JSON');
    await waitFor(() => expect(files).toHaveLength(2));
    expect(files.map((f) => f.name)).toEqual(['Alpha- notes-plan.md', 'Alpha- notes-plan.json']);
    expect(await files[0]!.text).toBe(`# ${ALPHA.title}\n`);
    const exported = JSON.parse(await files[1]!.text) as { format: string; turns: unknown[] };
    expect(exported.format).toBe('cairn.session');
    expect(exported.turns).toHaveLength(3);

    chooseFile(new File([await files[1]!.text], 'alpha.json', { type: 'application/json' }));
    // The import is the session open now, in the same project, with the exported turns.
    await turnRow('imported-1-a-t3');
    const imported = seen.filter((r) => r.method === 'POST');
    expect(imported.map((r) => r.path)).toEqual(['/api/sessions/import?project_id=p1']);
    expect(imported[0]?.body).toEqual(exported);
    await waitFor(() =>
      expect(
        within(screen.getByRole('navigation')).getAllByRole('button', { name: ALPHA.title }),
      ).toHaveLength(2),
    );
  });

  it('imports from the sidebar with no session open, into no project', async () => {
    const { seen } = stubSessionsBackend({ sessions: [ALPHA], turns: HISTORY });
    renderApp();
    await screen.findByRole('navigation');
    expect(screen.getByRole('button', { name: 'Import session…' })).toBeTruthy();
    const data = {
      format: 'cairn.session',
      version: 1,
      exported_at: '2026-01-02T00:00:00.000Z',
      cairn_version: '0.1.0',
      session: { id: 'x', title: 'From elsewhere', approval: 'auto', created_at: '2026-01-01T00:00:00.000Z' },
      turns: turns('x', 1),
    };
    chooseFile(new File([JSON.stringify(data)], 'elsewhere.json'), 'sidebar-import-file');
    await screen.findByRole('heading', { name: 'From elsewhere', level: 1 });
    expect(seen.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/sessions/import']);
  });

  it('says plainly when a file is not an export', async () => {
    const { seen } = stubSessionsBackend({ sessions: [ALPHA], turns: HISTORY });
    renderApp();
    await openSession(ALPHA.title);
    chooseFile(new File(['not json'], 'notes.txt'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Could not import notes.txt: it is not JSON. Choose a file made by “Export as JSON”.',
    );
    expect(seen.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
