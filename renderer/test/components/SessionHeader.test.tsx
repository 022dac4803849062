// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { Project, Session } from '../../../sidecar/src/protocol';
import { SessionHeader } from '../../src/components/SessionHeader';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';

// The side-panel toggle counts what waits for the user there (outside the running turn), so an approval a
// background script asks for is noticed with the panel closed.

const session: Session = {
  id: 's',
  project_id: null,
  title: 'A session',
  approval: 'ask',
  mode: 'tools',
  created_at: '',
  updated_at: '',
  running_turn_id: null,
  parent_session_id: null,
  parent_turn_id: null,
  branched_from: null,
};

function header(
  waiting: number | undefined,
  locale: Locale = 'en',
  options: { project?: Project | null; fetchImpl?: typeof fetch; onChanged?: () => void } = {},
) {
  render(
    <I18nProvider locale={locale}>
      <SessionHeader
        client={new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, options.fetchImpl ?? fetch)}
        session={session}
        project={options.project ?? null}
        streamState="open"
        modelName={null}
        onChanged={options.onChanged ?? (() => undefined)}
        onTogglePanel={() => undefined}
        waiting={waiting}
      />
    </I18nProvider>,
  );
}

afterEach(cleanup);

describe('the side-panel toggle', () => {
  it('says how many wait in the panel, and nothing when none do', () => {
    header(2);
    const toggle = screen.getByRole('button', { name: 'Toggle side panel (2 waiting for you)' });
    expect(toggle.textContent).toBe('◫2');
    cleanup();
    header(0);
    expect(screen.getByRole('button', { name: 'Toggle side panel' }).textContent).toBe('◫');
  });

  it('speaks Chinese', () => {
    header(1, 'zh-CN');
    expect(screen.getByRole('button', { name: '切换侧边面板（1 项等待你处理）' })).toBeTruthy();
  });
});

const project = (patch: Partial<Project> = {}): Project => ({
  id: 'p1',
  path: '/work/repo',
  name: 'repo',
  created_at: '',
  last_opened_at: '',
  python_path: null,
  sandbox: 'off',
  sandbox_network: 'on',
  ...patch,
});

describe('the approval mode', () => {
  it('offers the four modes, each explained, and saves the one chosen', async () => {
    const sent: { url: string; method: string | undefined; body: unknown }[] = [];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      sent.push({ url, method: init?.method, body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ ...session, approval: 'auto_edits' }), { status: 200 });
    }) as typeof fetch;
    const onChanged = vi.fn();
    header(0, 'en', { fetchImpl, onChanged });
    const select = screen.getByRole('combobox', { name: 'Approval' }) as HTMLSelectElement;
    const options = [...select.options].map((o) => [o.value, o.textContent, o.title]);
    expect(options).toEqual([
      ['read_only', 'Read-only', 'Tools with side effects are refused; reading and searching run.'],
      ['ask', 'Ask', 'Tools with side effects ask before they run.'],
      ['auto_edits', 'Auto-approve edits', 'File edits inside the project run; commands and the rest ask.'],
      ['auto', 'Auto', 'Everything runs without asking; your rules still allow, ask or deny first.'],
    ]);
    expect(select.value).toBe('ask');
    expect(select.title).toBe('Tools with side effects ask before they run.');

    fireEvent.change(select, { target: { value: 'auto_edits' } });
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(sent).toEqual([
      { url: 'http://127.0.0.1:1/api/sessions/s', method: 'PATCH', body: { approval: 'auto_edits' } },
    ]);
  });

  it("shows the server's refusal, and the mode still in effect", async () => {
    const fetchImpl = (async () =>
      new Response(JSON.stringify({ error: { code: 'internal', message: 'The server is restarting.' } }), {
        status: 503,
      })) as typeof fetch;
    const onChanged = vi.fn();
    header(0, 'en', { fetchImpl, onChanged });
    const select = screen.getByRole('combobox', { name: 'Approval' }) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'auto' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not change the approval mode: The server is restarting.');
    // Not the refused choice: the select says what the session still runs with.
    expect(select.value).toBe('ask');
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('speaks Chinese', () => {
    header(0, 'zh-CN');
    const select = screen.getByRole('combobox', { name: '审批' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['只读', '询问', '自动批准编辑', '自动']);
  });
});

describe('the sandbox badge', () => {
  const badge = () => document.querySelector('.sandbox-badge');

  it("shows whether the project's commands run sandboxed, and with network", () => {
    header(0, 'en', { project: project({ sandbox: 'on' }) });
    expect(badge()?.firstChild?.textContent).toBe('Sandboxed');
    expect(badge()?.getAttribute('title')).toBe(
      'Commands, kernels and tool workers run confined to the project folder.',
    );
    cleanup();
    header(0, 'en', { project: project({ sandbox: 'on', sandbox_network: 'off' }) });
    expect(badge()?.firstChild?.textContent).toBe('Sandboxed · no network');
    cleanup();
    header(0, 'en', { project: project({ sandbox: 'off', sandbox_network: 'off' }) });
    expect(badge()?.firstChild?.textContent).toBe('Not sandboxed');
    expect(badge()?.textContent).toContain('Turn the sandbox on in Settings → Permissions.');
  });

  it('is absent for a chat without a project', () => {
    header(0);
    expect(badge()).toBeNull();
  });

  it('speaks Chinese', () => {
    header(0, 'zh-CN', { project: project({ sandbox: 'on', sandbox_network: 'off' }) });
    expect(badge()?.firstChild?.textContent).toBe('沙箱中运行 · 无网络');
  });
});

describe('the session mode', () => {
  function modeHeader(options: { fetchImpl: typeof fetch; running?: boolean; onChanged?: () => void }) {
    render(
      <I18nProvider locale="en">
        <SessionHeader
          client={new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, options.fetchImpl)}
          session={session}
          streamState="open"
          modelName={null}
          onChanged={options.onChanged ?? (() => undefined)}
          onTogglePanel={() => undefined}
          running={options.running}
        />
      </I18nProvider>,
    );
    return screen.getByRole('combobox', { name: 'Mode' }) as HTMLSelectElement;
  }

  it('shows tools for a new session and switches it to code with a PATCH', async () => {
    const sent: { url: string; method: string | undefined; body: unknown }[] = [];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      sent.push({ url, method: init?.method, body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ ...session, mode: 'code' }), { status: 200 });
    }) as typeof fetch;
    const onChanged = vi.fn();
    const select = modeHeader({ fetchImpl, onChanged });
    expect(select.value).toBe('tools');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Tools', 'Code']);
    expect(select.disabled).toBe(false);

    fireEvent.change(select, { target: { value: 'code' } });
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(sent).toEqual([
      { url: 'http://127.0.0.1:1/api/sessions/s', method: 'PATCH', body: { mode: 'code' } },
    ]);
  });

  it('is disabled while a turn runs', () => {
    const fetchImpl = vi.fn() as unknown as typeof fetch;
    const select = modeHeader({ fetchImpl, running: true });
    expect(select.disabled).toBe(true);
    expect(select.title).toBe('The mode can change once the running turn ends.');
  });

  it("shows the server's refusal", async () => {
    const fetchImpl = (async () =>
      new Response(
        JSON.stringify({ error: { code: 'bad_request', message: 'Code mode needs a project.' } }),
        { status: 400 },
      )) as typeof fetch;
    const onChanged = vi.fn();
    const select = modeHeader({ fetchImpl, onChanged });
    fireEvent.change(select, { target: { value: 'code' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not switch the mode: Code mode needs a project.');
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('speaks Chinese', () => {
    render(
      <I18nProvider locale="zh-CN">
        <SessionHeader
          client={new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch)}
          session={session}
          streamState="open"
          modelName={null}
          onChanged={() => undefined}
          onTogglePanel={() => undefined}
        />
      </I18nProvider>,
    );
    const select = screen.getByRole('combobox', { name: '模式' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['工具', '代码']);
  });
});
