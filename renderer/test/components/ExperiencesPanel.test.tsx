// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { Experience, Session } from '../../../sidecar/src/protocol';
import { ExperiencesPanel } from '../../src/components/experiences/ExperiencesPanel';
import { I18nProvider } from '../../src/i18n/i18n';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

// A session's experiences in the side panel: listed, added, edited, moved between scopes and deleted
// through the API, and kept live from experience.* events.

const session: Session = {
  id: 's1',
  project_id: 'p1',
  title: 'Work',
  approval: 'auto',
  mode: 'tools',
  created_at: '',
  updated_at: '',
  running_turn_id: null,
  parent_session_id: null,
  parent_turn_id: null,
  branched_from: null,
};

const exp = (id: string, over: Partial<Experience> = {}): Experience => ({
  id,
  scope: 'session',
  session_id: 's1',
  project_id: 'p1',
  text: `fact ${id}`,
  author: 'agent',
  created_at: `2026-12-01T10:00:0${id.length}.000Z`,
  updated_at: '',
  ...over,
});

/** The experience routes over one in-memory list, answering as the sidecar does. */
function fakeSidecar(initial: Experience[]) {
  const list = [...initial];
  const requests: { method: string; path: string; body: unknown }[] = [];
  let next = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    requests.push({ method, path, body });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/sessions/s1/experiences' && method === 'GET') return json({ experiences: list });
    if (path === '/api/sessions/s1/experiences' && method === 'POST') {
      const scope = (body?.scope as Experience['scope']) ?? 'session';
      const added = exp(`new${++next}`, {
        text: String(body?.text),
        scope,
        session_id: scope === 'session' ? 's1' : null,
        author: 'user',
      });
      list.push(added);
      return json(added, 201);
    }
    const id = path.split('/').at(-1)!;
    const index = list.findIndex((e) => e.id === id);
    if (index === -1) return json({ error: { code: 'not_found', message: 'Experience not found.' } }, 404);
    if (method === 'DELETE') {
      list.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    const scope = (body?.scope as Experience['scope']) ?? list[index]!.scope;
    list[index] = {
      ...list[index]!,
      ...(body?.text ? { text: String(body.text) } : {}),
      scope,
      session_id: scope === 'session' ? String(body?.session_id ?? list[index]!.session_id) : null,
    };
    return json(list[index]);
  };
  return { list, requests, client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch) };
}

function setup(initial: Experience[]) {
  const server = fakeSidecar(initial);
  const source = liveSource(eventMaker('s1'));
  render(
    <I18nProvider locale="en">
      <ExperiencesPanel
        client={server.client}
        source={source}
        sessionId={session.id}
        projectId={session.project_id}
      />
    </I18nProvider>,
  );
  const texts = () => [...document.querySelectorAll('.experience-text')].map((e) => e.textContent);
  return { server, source, texts };
}

const row = (text: string) => screen.getByText(text).closest('li') as HTMLElement;

afterEach(() => cleanup());

describe('the experiences panel', () => {
  it('lists the session’s and the project’s experiences with scope and author', async () => {
    const { texts } = setup([exp('a'), exp('bb', { scope: 'project', session_id: null, author: 'user' })]);
    await waitFor(() => expect(texts()).toEqual(['fact a', 'fact bb']));
    expect(row('fact a').textContent).toContain('This session · by the agent');
    expect(row('fact bb').textContent).toContain('Every session of the project · by you');
  });

  it('adds one for the project, and refuses an empty one', async () => {
    const { server, texts } = setup([]);
    await screen.findByText('No experiences yet.');
    const form = within(screen.getByRole('form', { name: 'New experience' }));
    fireEvent.click(form.getByRole('button', { name: 'Add' }));
    expect(form.getByRole('alert').textContent).toBe('Write the experience first.');
    fireEvent.input(form.getByLabelText('New experience'), {
      target: { value: '  tests run with npm test  ' },
    });
    fireEvent.change(form.getByLabelText('Scope'), { target: { value: 'project' } });
    fireEvent.click(form.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(texts()).toEqual(['tests run with npm test']));
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/sessions/s1/experiences',
        body: { text: 'tests run with npm test', scope: 'project' },
      },
    ]);
    expect((form.getByLabelText('New experience') as HTMLTextAreaElement).value).toBe('');
  });

  it('edits in place, moves between scopes, and deletes after asking', async () => {
    const { server, texts } = setup([exp('a'), exp('bb', { scope: 'project', session_id: null })]);
    await waitFor(() => expect(texts()).toEqual(['fact a', 'fact bb']));

    fireEvent.click(within(row('fact a')).getByRole('button', { name: 'Edit' }));
    fireEvent.input(screen.getByLabelText('Experience text'), { target: { value: 'fact a, corrected' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(texts()).toEqual(['fact a, corrected', 'fact bb']));

    fireEvent.click(within(row('fact bb')).getByRole('button', { name: 'Move to this session' }));
    await waitFor(() => expect(row('fact bb').textContent).toContain('This session'));
    fireEvent.click(within(row('fact a, corrected')).getByRole('button', { name: 'Move to project' }));
    await waitFor(() =>
      expect(row('fact a, corrected').textContent).toContain('Every session of the project'),
    );

    fireEvent.click(within(row('fact bb')).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(texts()).toEqual(['fact a, corrected']));

    expect(server.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path, r.body])).toEqual([
      ['PATCH', '/api/experiences/a', { text: 'fact a, corrected' }],
      ['PATCH', '/api/experiences/bb', { scope: 'session', session_id: 's1' }],
      ['PATCH', '/api/experiences/a', { scope: 'project' }],
      ['DELETE', '/api/experiences/bb', null],
    ]);
  });

  it('leaves an edit with Escape, keeping the text as it was', async () => {
    const { server, texts } = setup([exp('a')]);
    await waitFor(() => expect(texts()).toEqual(['fact a']));
    fireEvent.click(within(row('fact a')).getByRole('button', { name: 'Edit' }));
    const box = screen.getByLabelText('Experience text');
    expect(document.activeElement).toBe(box);
    fireEvent.input(box, { target: { value: 'never mind' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByLabelText('Experience text')).toBeNull();
    expect(texts()).toEqual(['fact a']);
    expect(server.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('follows the agent’s remember and forget live, and drops one moved to another session', async () => {
    const { source, texts } = setup([exp('a')]);
    await waitFor(() => expect(texts()).toEqual(['fact a']));
    source.emit({ type: 'experience.added', turn_id: 't1', experience: exp('ccc', { text: 'remembered' }) });
    expect(texts()).toEqual(['fact a', 'remembered']);
    source.emit({
      type: 'experience.updated',
      turn_id: null,
      experience: exp('ccc', { text: 'remembered better' }),
    });
    expect(texts()).toEqual(['fact a', 'remembered better']);
    source.emit({ type: 'experience.updated', turn_id: null, experience: exp('a', { session_id: 's2' }) });
    expect(texts()).toEqual(['remembered better']);
    source.emit({ type: 'experience.removed', turn_id: 't1', experience_id: 'ccc' });
    expect(texts()).toEqual([]);
  });

  it('says what went wrong when a change fails, and keeps the draft', async () => {
    const { server, texts } = setup([exp('a')]);
    await waitFor(() => expect(texts()).toEqual(['fact a']));
    server.list.splice(0); // another window deleted it
    fireEvent.click(within(row('fact a')).getByRole('button', { name: 'Edit' }));
    fireEvent.input(screen.getByLabelText('Experience text'), { target: { value: 'my careful edit' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Experience not found.');
    expect((screen.getByLabelText('Experience text') as HTMLTextAreaElement).value).toBe('my careful edit');
  });
});
