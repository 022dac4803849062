// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { ContextInfo, ContextVersionInfo, StructuredSummary } from '../../../sidecar/src/protocol';
import { CompactionCard } from '../../src/components/context/CompactionCard';
import { ContextMeter } from '../../src/components/context/ContextMeter';
import { ContextPanel } from '../../src/components/context/ContextPanel';
import { I18nProvider } from '../../src/i18n/i18n';
import { compactionFromVersion } from '../../src/state/compaction-item';
import { useCompactNow } from '../../src/state/use-compact-now';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

// The session's context in the UI: the header's meter, the context view (units, compact now, versions,
// one version read only) and a compaction's card, against a sidecar stand-in at the fetch level.

const summary: StructuredSummary = {
  goal: 'fix the parser',
  instruction: 'keep the API',
  discoveries: ['the bug is in lexer.ts'],
  completed: ['wrote the failing test'],
  current_status: 'patching lexer.ts',
  likely_next_work: ['run the tests'],
  relevant_files_directories: ['src/lexer.ts'],
  remember: [],
  kernel_variables: [{ kernel: 'k1', name: 'df', type: 'DataFrame', repr: '3 rows' }],
};

const info = (over: Partial<ContextInfo> = {}): ContextInfo => ({
  version: 1,
  estimated_tokens: 61_500,
  estimated: true,
  usable_window: 96_000,
  compact_threshold: 0.8,
  threshold_tokens: 76_800,
  compaction_pending: false,
  system_prompt_addition: null,
  units: [
    { ref: 'm1', level: 'raw', kind: 'message', role: 'user', tokens: 40, turn_id: 't1', protected: false },
    {
      ref: 'r2',
      level: 'raw',
      kind: 'tool_result',
      role: 'user',
      tokens: 52_000,
      turn_id: 't1',
      protected: false,
    },
    { ref: 'm3', level: 'raw', kind: 'message', role: 'user', tokens: 30, turn_id: 't2', protected: true },
  ],
  ...over,
});

const v2: ContextVersionInfo = {
  number: 2,
  parent: 1,
  level: 'session',
  reason: 'user',
  turn_id: null,
  tokens_before: 61_500,
  tokens_after: 4_100,
  after_message_id: 9,
  summary,
  created_at: '2026-12-01T10:00:00.000Z',
};
const v1: ContextVersionInfo = {
  ...v2,
  number: 1,
  parent: null,
  level: null,
  reason: 'initial',
  summary: null,
};

function fakeSidecar(options: { compact?: 'ok' | 'busy' | 'slow' } = {}) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    requests.push({
      method,
      path: url.pathname + url.search,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    const path = url.pathname;
    // The units only when asked for (the meter's read leaves them out).
    if (path === '/api/sessions/s1/context')
      return json(url.searchParams.get('units') === 'false' ? { ...info(), units: [] } : info());
    if (path === '/api/sessions/s1/context/versions') return json({ versions: [v1, v2] });
    if (path === '/api/sessions/s1/context/versions/1') {
      // 45 messages: the newest 40 first, then the 5 before them.
      const before = Number(url.searchParams.get('before') ?? 45);
      const start = Math.max(0, before - 40);
      const messages = Array.from({ length: before - start }, (_, i) => ({
        index: start + i,
        role: (start + i) % 2 === 0 ? 'user' : 'assistant',
        content: [{ type: 'text', text: `message number ${start + i}` }],
      }));
      return json({ version: v1, head: false, messages, total: 45, next_before: start > 0 ? start : null });
    }
    if (path === '/api/sessions/s1/context/compact') {
      // Answers only when the request is dropped, as fetch does when its signal aborts.
      if (options.compact === 'slow')
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      if (options.compact === 'busy')
        return json({ error: { code: 'turn_running', message: 'A turn is running in this session.' } }, 409);
      return json({ ...info({ version: 2, estimated_tokens: 4_100 }), compacted: v2 });
    }
    return json({ error: { code: 'not_found', message: 'no route' } }, 404);
  };
  return { requests, client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch) };
}

afterEach(() => cleanup());

describe('the context meter', () => {
  it('shows the next request’s estimated size against the window, and the threshold', () => {
    let opened = 0;
    render(
      <I18nProvider locale="en">
        <ContextMeter info={info()} onOpen={() => opened++} />
      </I18nProvider>,
    );
    const meter = screen.getByTestId('context-meter');
    expect(meter.textContent).toContain('61.5K / 96K');
    expect(meter.textContent).toContain('estimated');
    expect(meter.getAttribute('aria-label')).toBe(
      'Context: 61,500 of 96,000 tokens (estimated) in the next request. Compacts automatically at 76,800. Open the context view.',
    );
    expect((meter.querySelector('.context-meter-threshold') as HTMLElement).style.left).toBe('80.0%');
    fireEvent.click(meter);
    expect(opened).toBe(1);
  });

  it('says when automatic compaction is off, and warns past the threshold', () => {
    const { rerender } = render(
      <I18nProvider locale="en">
        <ContextMeter info={info({ compact_threshold: null, threshold_tokens: null })} onOpen={() => {}} />
      </I18nProvider>,
    );
    const meter = screen.getByTestId('context-meter');
    expect(meter.getAttribute('aria-label')).toContain('Automatic compaction is off.');
    expect(meter.querySelector('.context-meter-threshold')).toBeNull();
    rerender(
      <I18nProvider locale="en">
        <ContextMeter info={info({ estimated_tokens: 80_000 })} onOpen={() => {}} />
      </I18nProvider>,
    );
    expect(screen.getByTestId('context-meter').className).toContain('over');
  });
});

/** The side panel's context section as the conversation holds it: "compact now" lives outside it. */
function Section(props: { client: CairnClient; onChanged(): void; version?: number }) {
  const compaction = useCompactNow(props.client, 's1', props.onChanged);
  return (
    <ContextPanel
      client={props.client}
      sessionId="s1"
      events={source}
      info={{ ...info(), units: [] }}
      infoError={null}
      compaction={compaction}
      turnRunning={false}
      request={{ nonce: 1, ...(props.version !== undefined ? { version: props.version } : {}) }}
    />
  );
}

const section = () => document.querySelector('.context-panel') as HTMLDetailsElement;
const source = liveSource(eventMaker('s1'));

describe('the context section of the side panel', () => {
  const open = (server: ReturnType<typeof fakeSidecar>, extra: { version?: number } = {}) => {
    let changed = 0;
    render(
      <I18nProvider locale="en">
        <Section client={server.client} onChanged={() => changed++} {...extra} />
      </I18nProvider>,
    );
    return { changed: () => changed };
  };

  it('lists the units with their sizes and the versions', async () => {
    const server = fakeSidecar();
    open(server);
    const dialog = section();
    // Asked to open (by the meter), it opens.
    expect(dialog.open).toBe(true);
    expect(dialog.textContent).toContain(
      'Version 1 · 61,500 of 96,000 tokens (estimated) in the next request',
    );
    expect(dialog.textContent).toContain('Compacts automatically at 76,800 (80% of the usable window)');
    // The meter's read had no units: the open section reads them itself.
    await waitFor(() => expect(dialog.querySelectorAll('.context-unit')).toHaveLength(3));
    expect(server.requests.filter((r) => r.path.startsWith('/api/sessions/s1/context?'))).toEqual([]);
    expect(server.requests.some((r) => r.path === '/api/sessions/s1/context')).toBe(true);
    const units = dialog.querySelectorAll('.context-unit');
    expect([...units].map((u) => u.getAttribute('data-ref'))).toEqual(['m1', 'r2', 'm3']);
    expect(units[1]!.textContent).toContain('tool result');
    expect(units[1]!.textContent).toContain('52,000 tokens');
    expect(units[2]!.textContent).toContain('kept');
    expect(await within(dialog).findByText('Version 1 · the session’s start')).toBeTruthy();
    // Newest first, with the sizes it cut between, labelled as estimates.
    const versions = [...dialog.querySelectorAll('.context-versions li')];
    expect(versions.map((v) => v.getAttribute('data-version'))).toEqual(['2', '1']);
    expect(versions[0]!.textContent).toContain(
      'Version 2 · Session · by you · 61,500 → 4,100 tokens (estimated)',
    );
  });

  it('compacts now at the chosen level and reports the new version', async () => {
    const server = fakeSidecar();
    const view = open(server);
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: 'session' } });
    fireEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Compacted to version 2: 61,500 → 4,100 tokens (estimated)',
    );
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/sessions/s1/context/compact', body: { level: 'session' } },
    ]);
    expect(view.changed()).toBe(1);
  });

  it('explains that a running turn must end before compacting', async () => {
    const view = open(fakeSidecar({ compact: 'busy' }));
    fireEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A turn is running. Compact when it has finished, or cancel it first.',
    );
    expect(view.changed()).toBe(0);
  });

  it('cancels a compaction that takes too long', async () => {
    const view = open(fakeSidecar({ compact: 'slow' }));
    fireEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    expect((screen.getByRole('button', { name: 'Compacting…' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Compaction cancelled: the context stays as it was.',
    );
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(view.changed()).toBe(0);
  });

  it('keeps a running compaction while the reader looks at a version and comes back', async () => {
    open(fakeSidecar({ compact: 'slow' }));
    fireEvent.click(screen.getByRole('button', { name: 'Compact now' }));
    await screen.findByText('Version 1 · the session’s start');
    const first = document.querySelector('.context-versions li[data-version="1"]') as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'View' }));
    await screen.findByRole('region', { name: 'What the model saw at version 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Back to the overview' }));
    // Still running: only Cancel stops it.
    expect(screen.getByRole('button', { name: 'Compacting…' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Compaction cancelled: the context stays as it was.',
    );
  });

  it('opens straight on the version a compaction card points at', async () => {
    open(fakeSidecar(), { version: 1 });
    const version = await screen.findByRole('region', { name: 'What the model saw at version 1' });
    await within(version).findByText('message number 44');
    expect(screen.queryByRole('button', { name: 'Compact now' })).toBeNull();
  });

  it('shows a version read only, newest page first, earlier pages on demand', async () => {
    const server = fakeSidecar();
    open(server);
    await screen.findByText('Version 1 · the session’s start');
    const first = document.querySelector('.context-versions li[data-version="1"]') as HTMLElement;
    fireEvent.click(within(first).getByRole('button', { name: 'View' }));
    const version = await screen.findByRole('region', { name: 'What the model saw at version 1' });
    await within(version).findByText('message number 44');
    expect(version.textContent).toContain('Read only');
    expect(version.querySelectorAll('.version-message')).toHaveLength(40);
    fireEvent.click(within(version).getByRole('button', { name: 'Load earlier messages' }));
    await within(version).findByText('message number 0');
    expect(version.querySelectorAll('.version-message')).toHaveLength(45);
    expect(within(version).queryByRole('button', { name: 'Load earlier messages' })).toBeNull();
    expect(server.requests.map((r) => r.path)).toContain(
      '/api/sessions/s1/context/versions/1?limit=40&before=5',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back to the overview' }));
    expect(await screen.findByRole('button', { name: 'Compact now' })).toBeTruthy();
  });
});

describe('a compaction in the conversation', () => {
  it('shows level and tokens, the summary when expanded, and opens the version before it', () => {
    const viewed: number[] = [];
    render(
      <I18nProvider locale="en">
        <CompactionCard item={compactionFromVersion(v2)} onViewVersion={(n) => viewed.push(n)} />
      </I18nProvider>,
    );
    const card = screen.getByTestId('compaction-card');
    expect(card.textContent).toContain(
      'Context compacted (Session, by you): 61,500 → 4,100 tokens (estimated)',
    );
    const details = card.querySelector('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(within(card).getByText('Summary'));
    expect(within(card).getByText('fix the parser')).toBeTruthy();
    expect(within(card).getByText('the bug is in lexer.ts')).toBeTruthy();
    expect(within(card).getByText('df')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'View the context before it' }));
    expect(viewed).toEqual([1]);
  });

  it('says a failed compaction left the context as it was', async () => {
    render(
      <I18nProvider locale="en">
        <CompactionCard
          item={{
            ...compactionFromVersion(v2),
            state: 'failed',
            summary: null,
            error: { code: 'model_overloaded', message: 'The model is overloaded.' },
          }}
        />
      </I18nProvider>,
    );
    const card = screen.getByTestId('compaction-card');
    await waitFor(() => expect(card.textContent).toContain('Compaction failed: The model is overloaded.'));
    expect(card.textContent).toContain('nothing of the history was lost');
    expect(within(card).queryByRole('button')).toBeNull();
  });
});
