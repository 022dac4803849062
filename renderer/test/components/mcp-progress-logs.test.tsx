// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { McpSessionStatus } from '../../../sidecar/src/protocol';
import { McpSessionPanel } from '../../src/components/mcp/McpSessionPanel';
import { I18nProvider } from '../../src/i18n/i18n';
import { endedCard, openCard } from '../support/file-cards';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';
import '../support/lazy-bodies';
import '../support/zh-CN';

afterEach(cleanup);

const NAME = 'mcp__srv__work';
const running = (progress: { progress: number; total: number | null; message: string | null }) =>
  endedCard(NAME, { steps: 10 }, { status: 'running', startedAt: Date.now(), durationMs: null, progress });

describe('an MCP call’s progress on its card', () => {
  it('shows a bar, the count of the total and the message while it runs', async () => {
    openCard(running({ progress: 3, total: 10, message: 'indexing <b>files</b>' }), { result: null });
    expect(screen.getByTestId('tool-progress-badge').textContent).toBe('3 of 10');
    const view = await screen.findByTestId('tool-progress');
    const bar = view.querySelector('progress')!;
    expect(bar.getAttribute('value')).toBe('0.3');
    expect(bar.getAttribute('aria-label')).toBe('Progress');
    expect(within(view).getByText('indexing <b>files</b>')).toBeTruthy();
    expect(view.querySelector('b')).toBeNull();
  });

  it('shows the count alone when the server gives no total, in Chinese too', async () => {
    openCard(running({ progress: 42, total: null, message: null }), { result: null }, 'zh-CN');
    expect(screen.getByTestId('tool-progress-badge').textContent).toBe('已完成 42');
    const view = await screen.findByTestId('tool-progress');
    expect(view.querySelector('progress')).toBeNull();
    expect(view.textContent).toBe('已完成 42');
  });

  it('shows no progress once the call has ended', async () => {
    openCard(endedCard(NAME, {}, { progress: { progress: 10, total: 10, message: 'done' } }), {
      result: 'ok',
    });
    await screen.findByText('ok');
    expect(screen.queryByTestId('tool-progress-badge')).toBeNull();
    expect(screen.queryByTestId('tool-progress')).toBeNull();
  });
});

describe('the session’s MCP panel', () => {
  const status = (tools: string[]): McpSessionStatus => ({
    snapshot_at: '2026-01-01T00:00:00.000Z',
    reset_pending: false,
    servers: [
      {
        server_id: 'srv1',
        name: 'progress',
        transport: 'stdio',
        state: 'connected',
        error: null,
        authorization_url: null,
        tools: tools.map((name) => ({
          agent_name: `mcp__progress__${name}`,
          name,
          description: null,
          available: true,
        })),
      },
    ],
  });

  it('shows a server’s recent log lines as text (those logged before it opened first), and its new tools after list_changed', async () => {
    let current = status(['work']);
    const make = eventMaker('s1');
    // Logged before the panel opened: in the journal, read with the events endpoint.
    const before = make({
      type: 'mcp.log',
      turn_id: null,
      server_id: 'srv1',
      level: 'notice',
      data: 'started',
    });
    const asked: string[] = [];
    const client = new CairnClient({ url: 'http://x', token: 't' }, async (input) => {
      const url = new URL(String(input));
      asked.push(`${url.pathname}?${url.searchParams.get('type_prefix') ?? ''}`);
      if (url.pathname.endsWith('/events'))
        return new Response(JSON.stringify({ events: [before], has_more: false }));
      return new Response(JSON.stringify(current));
    });
    const source = liveSource(make);
    render(
      <I18nProvider locale="en">
        <McpSessionPanel client={client} source={source} sessionId="s1" />
      </I18nProvider>,
    );
    expect(await screen.findByText('mcp__progress__work')).toBeTruthy();
    expect(await screen.findByText('Log (1)')).toBeTruthy();

    source.emit({ type: 'mcp.log', turn_id: null, server_id: 'srv1', level: 'info', data: { working: 3 } });
    source.emit({ type: 'mcp.log', turn_id: null, server_id: 'srv1', level: 'error', data: '<img src=x>' });
    source.emit({ type: 'mcp.log', turn_id: null, server_id: 'other', level: 'info', data: 'not this one' });
    fireEvent.click(await screen.findByText('Log (3)'));
    expect(asked).toContain('/api/sessions/s1/events?mcp.log');
    const lines = screen.getByRole('list', { name: 'Recent log messages of progress' });
    expect(
      within(lines)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['noticestarted', 'info{"working":3}', 'error<img src=x>']);
    expect(lines.querySelector('img')).toBeNull();

    current = status(['work', 'fresh']);
    source.emit({
      type: 'mcp.server',
      turn_id: null,
      server_id: 'srv1',
      authorization_url: null,
      name: 'progress',
      state: 'connected',
      error: null,
      tools: 2,
    });
    expect(await screen.findByText('mcp__progress__fresh')).toBeTruthy();
  });
});
