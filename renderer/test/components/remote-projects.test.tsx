// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { OpenProjectDialog } from '../../src/components/OpenProjectDialog';
import { Sidebar } from '../../src/components/Sidebar';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeBridge, LOCAL_INFO } from '../support/fake-bridge';

// Projects are folders on the machine that runs the server: with a remote backend the UI says which one
// and offers no folder picker (it would show this computer's folders).

const PROJECT = {
  id: 'p1',
  path: '/srv/work/repo',
  name: 'repo',
  created_at: '2025-01-01T00:00:00.000Z',
  last_opened_at: '2025-01-01T00:00:00.000Z',
  python_path: null,
  sandbox: 'off' as const,
  sandbox_network: 'on' as const,
};

function renderIn(node: ReactNode) {
  return render(<I18nProvider locale="en">{node}</I18nProvider>);
}

/** A client whose only route is POST /api/projects. */
function projectClient() {
  const opened: string[] = [];
  const fetchImpl = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    opened.push((JSON.parse(String(init?.body)) as { path: string }).path);
    return new Response(JSON.stringify(PROJECT), { status: 201 });
  });
  return {
    client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetchImpl as typeof fetch),
    opened,
  };
}

/**
 * The dialog on a backend at `remoteHost` (null: this computer), in the desktop app (with a fake bridge)
 * or in a browser, over a client whose only route is POST /api/projects.
 */
function openDialog(where: { desktop: boolean; remoteHost: string | null }) {
  const fake = where.desktop ? fakeBridge(LOCAL_INFO) : null;
  if (fake) window.cairn = fake.bridge;
  const { client, opened } = projectClient();
  const onOpened = vi.fn();
  renderIn(
    <OpenProjectDialog
      client={client}
      remote={where.remoteHost !== null}
      remoteHost={where.remoteHost}
      onClose={() => undefined}
      onOpened={onOpened}
    />,
  );
  return { bridge: fake?.bridge ?? null, opened, onOpened };
}

afterEach(() => {
  cleanup();
  delete window.cairn;
});

describe('OpenProjectDialog', () => {
  it('in the desktop app on a remote server: a path on that server, no picker', async () => {
    const { bridge, opened, onOpened } = openDialog({ desktop: true, remoteHost: 'cairn.example.com' });
    expect(screen.queryByRole('button', { name: 'Open folder' })).toBeNull();
    expect(
      screen.getByText(
        'Projects are folders on cairn.example.com, the machine that runs the Cairn server, not on this computer.',
      ),
    ).toBeTruthy();
    fireEvent.input(screen.getByLabelText('Folder path on cairn.example.com'), {
      target: { value: '/srv/work/repo' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(onOpened).toHaveBeenCalledWith(PROJECT));
    expect(opened).toEqual(['/srv/work/repo']);
    expect(bridge!.pickFolder).not.toHaveBeenCalled();
  });

  it('in the desktop app on this computer: the native folder picker', async () => {
    const { bridge, opened, onOpened } = openDialog({ desktop: true, remoteHost: null });
    bridge!.pickFolder.mockResolvedValueOnce('/home/me/repo');
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open folder' }));
    await waitFor(() => expect(onOpened).toHaveBeenCalled());
    expect(opened).toEqual(['/home/me/repo']);
  });

  it('in a browser: a path on the server, as before', () => {
    openDialog({ desktop: false, remoteHost: null });
    expect(screen.getByLabelText('Folder path on the server')).toBeTruthy();
    expect(screen.getByText('Projects are folders on the machine that runs the Cairn server.')).toBeTruthy();
  });
});

describe('Sidebar', () => {
  const sidebar = (remoteHost: string | null) =>
    renderIn(
      <Sidebar
        projects={[PROJECT]}
        sessions={[]}
        selectedId={null}
        showProjects
        remoteHost={remoteHost}
        onSelect={() => undefined}
        onOpenProject={() => undefined}
        onNewSession={() => undefined}
        onRename={async () => undefined}
        onDeleteSession={async () => undefined}
        onDeleteProject={async () => undefined}
        onSettings={() => undefined}
      />,
    );

  it('marks projects as being on the remote host', () => {
    sidebar('cairn.example.com');
    const marker = screen.getByText('on cairn.example.com');
    expect(marker.closest('[title]')?.getAttribute('title')).toBe(
      'Projects are folders on the server cairn.example.com',
    );
    expect(screen.getByText('repo').getAttribute('title')).toBe('/srv/work/repo on cairn.example.com');
  });

  it('has no marker for a local backend', () => {
    sidebar(null);
    expect(screen.queryByText(/^on /)).toBeNull();
    expect(screen.getByText('repo').getAttribute('title')).toBe('/srv/work/repo');
  });
});
