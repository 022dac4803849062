// @vitest-environment happy-dom
import '../support/zh-CN';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { ansiSegments } from '../../src/components/AnsiText';
import { clipLines } from '../../src/components/clip-lines';
import { ToolCard } from '../../src/components/ToolCard';
import { summarizeToolInput } from '../../src/components/tool-summary';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { newCard } from '../../src/state/tool-items';
import type { ToolCardState } from '../../src/state/turn-view';
import '../support/lazy-bodies';

const ESC = '\x1b';

function makeCard(patch: Partial<ToolCardState> = {}): ToolCardState {
  return { ...newCard('tu1', 'Bash', { command: 'npm test' }), ...patch };
}

interface Call {
  url: string;
  init: RequestInit | undefined;
}

function fakeClient(respond: (url: string) => Response = () => new Response('{}')) {
  const calls: Call[] = [];
  const fakeFetch: typeof fetch = async (input, init) => {
    const url = String(input);
    calls.push({ url, init });
    return respond(url);
  };
  return { client: new CairnClient({ url: 'http://x', token: 't' }, fakeFetch), calls };
}

function storedCall(result: string | null) {
  return {
    id: 'tc1',
    session_id: 's1',
    turn_id: 't1',
    tool_use_id: 'tu1',
    name: 'Bash',
    input: { command: 'npm test' },
    status: 'completed',
    is_error: false,
    preview: 'short',
    result_file: null,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:01.000Z',
    duration_ms: 1000,
    result,
  };
}

function renderCard(card: ToolCardState, client = fakeClient().client, locale: Locale = 'en') {
  const wrap = (node: ReactNode) => <I18nProvider locale={locale}>{node}</I18nProvider>;
  const result = render(wrap(<ToolCard card={card} client={client} />));
  return {
    ...result,
    update: (next: ToolCardState) => result.rerender(wrap(<ToolCard card={next} client={client} />)),
  };
}

function header() {
  return screen.getAllByRole('button')[0]!;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('summarizeToolInput', () => {
  it.each([
    ['Bash', { command: 'npm test -- --watch=false' }, 'npm test -- --watch=false'],
    ['Read', { path: 'src/index.ts', offset: 10 }, 'src/index.ts'],
    ['Write', { path: 'notes.md', content: 'hello' }, 'notes.md'],
    ['Edit', { path: 'a.ts', old_string: 'x', new_string: 'y' }, 'a.ts'],
    ['Grep', { pattern: 'fn\\s+main', path: 'src' }, 'fn\\s+main'],
    ['Glob', { pattern: '**/*.ts' }, '**/*.ts'],
    ['Exec', { program: 'git', args: ['commit', '-m', "it's done"] }, `git commit -m 'it'\\''s done'`],
    ['AskUserQuestion', { question: 'Which port?', options: ['80', '8080'] }, 'Which port?'],
    ['some_tool', { a: 1, b: [true], c: 'text' }, 'a: 1, b: [true], c: text'],
    ['Bash', { command: 'echo one\n  echo two' }, 'echo one echo two'],
  ])('%s %j → %s', (name, input, expected) => {
    expect(summarizeToolInput(name, input)).toBe(expected);
  });

  it('cuts very long summaries', () => {
    const summary = summarizeToolInput('Bash', { command: 'x'.repeat(1000) });
    expect(summary.length).toBe(240);
    expect(summary.endsWith('…')).toBe(true);
  });
});

describe('ToolCard', () => {
  it('shows a hidden character in its one-line summary as a marker', () => {
    const { container } = renderCard(
      makeCard({ name: 'Write', input: { path: 'notes\u202etxt.sh', content: '' } }),
    );
    const summary = container.querySelector('.tool-card-summary')!;
    expect(summary.querySelector('.invisible-char')?.textContent).toBe('⟨U+202E⟩');
    expect(summary.textContent).not.toContain('\u202e');
  });

  it('is collapsed by default and shows name, summary, status and duration', () => {
    renderCard(
      makeCard({ name: 'Read', input: { path: 'src/app.ts' }, status: 'completed', durationMs: 1234 }),
    );
    const button = header();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.textContent).toContain('Read');
    expect(button.textContent).toContain('src/app.ts');
    expect(button.textContent).toContain('Done');
    expect(button.textContent).toContain('1.2 s');
    expect(screen.queryByText('Arguments')).toBeNull();
  });

  it('labels every status', () => {
    const labels: Record<ToolCardState['status'], string> = {
      pending: 'Pending',
      waiting_approval: 'Waiting for approval',
      running: 'Running',
      completed: 'Done',
      failed: 'Failed',
      denied: 'Denied',
      cancelled: 'Cancelled',
      interrupted: 'Interrupted',
    };
    const { update, container } = renderCard(makeCard());
    for (const [status, label] of Object.entries(labels)) {
      update(makeCard({ status: status as ToolCardState['status'] }));
      const badge = container.querySelector('.tool-status');
      expect(badge?.textContent).toBe(label);
      expect(badge?.classList.contains(`tool-status--${status}`)).toBe(true);
    }
  });

  it('opens on the command and the waiting output, and closes again', async () => {
    renderCard(
      makeCard({
        name: 'Exec',
        input: { program: 'git', args: ['status'] },
        status: 'running',
        startedAt: Date.now(),
      }),
    );
    expect(header().textContent).toContain('git status');
    fireEvent.click(header());
    expect(header().getAttribute('aria-expanded')).toBe('true');
    const command = await screen.findByRole('region', { name: 'Command' });
    expect(command.querySelector('code')?.textContent?.trim()).toBe('git status');
    expect(screen.getByText('No output yet')).toBeTruthy();
    expect(document.querySelector('.tool-card-body')?.textContent).not.toContain('{');
    fireEvent.click(header());
    expect(screen.queryByRole('region', { name: 'Command' })).toBeNull();
  });

  it('shows live output with ANSI colours as spans and no escape codes', async () => {
    const output = `${ESC}[31mred${ESC}[0m plain ${ESC}[1;32mbold green${ESC}[0m ${ESC}[38;5;208morange${ESC}[0m ${ESC}[38;2;1;2;3mrgb${ESC}[0m\n${ESC}]8;;https://x.example${ESC}\\link${ESC}]8;;${ESC}\\ 50%\r100%\n`;
    const { container } = renderCard(makeCard({ status: 'running', startedAt: Date.now(), output }));
    fireEvent.click(header());
    const red = await screen.findByText('red');
    expect(red.tagName).toBe('SPAN');
    expect(red.className).toBe('ansi-red-fg');
    expect(screen.getByText('bold green').className).toBe('ansi-green-fg ansi-bold');
    expect((screen.getByText('orange') as HTMLElement).style.color).toBe('rgb(255, 135, 0)');
    expect((screen.getByText('rgb') as HTMLElement).style.color).toBe('rgb(1, 2, 3)');
    const text = container.querySelector('.tool-card-body')?.textContent ?? '';
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('[31m');
    // A carriage return (a progress bar) overwrites the line: only what came after it stays.
    expect(text).toContain('red plain bold green orange rgb\n100%');
    expect(text).not.toContain('https://x.example');
    expect(text).not.toContain('50%');
    expect(container.innerHTML).not.toContain('<script');
  });

  it("shows a long output's head and tail, and all of it on demand", async () => {
    const preview = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join('\n');
    const { container } = renderCard(makeCard({ status: 'completed', preview, durationMs: 20 }));
    fireEvent.click(header());
    await screen.findByRole('region', { name: 'Output' });
    const [head, tail] = [...container.querySelectorAll('[aria-label="Output"] .tool-card-pre')].map(
      (pre) => pre.textContent ?? '',
    );
    expect(head!.split('\n')).toHaveLength(20);
    expect(head!.startsWith('line 1\n')).toBe(true);
    expect(tail!.split('\n')).toHaveLength(20);
    expect(tail!.startsWith('line 231\n')).toBe(true);
    expect(tail!.endsWith('line 250')).toBe(true);
    expect(container.textContent).not.toContain('line 21\n');
    expect(screen.getByRole('button', { name: 'Show all 250 lines' }).textContent).toBe(
      'Show all (210 more lines)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show all 250 lines' }));
    const all = container.querySelector('.tool-card-pre--full')?.textContent ?? '';
    expect(all).toBe(preview);
    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(container.querySelector('.tool-card-pre--full')).toBeNull();
  });

  it('keeps the last lines of long live output', () => {
    const clip = clipLines(Array.from({ length: 300 }, (_, i) => `l${i}`).join('\n'), 'tail');
    expect(clip).toMatchObject({ totalLines: 300, shownLines: 200, clipped: true });
    expect(clip.text.startsWith('l100\n')).toBe(true);
    expect(clip.text.endsWith('l299')).toBe(true);
  });

  it('ticks the elapsed time every second while running, then shows the final duration', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T00:00:10.000Z'));
    const startedAt = Date.parse('2025-01-01T00:00:07.000Z');
    const { update } = renderCard(makeCard({ status: 'running', startedAt }));
    expect(header().textContent).toContain('3 s');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(header().textContent).toContain('5 s');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(header().textContent).toContain('1 min 5 s');
    update(makeCard({ status: 'completed', startedAt, durationMs: 65_400 }));
    expect(header().textContent).toContain('1 min 5 s');
    update(makeCard({ status: 'completed', startedAt, durationMs: 850 }));
    expect(header().textContent).toContain('0.9 s');
  });

  it('loads the whole result, with the token, only for a finished call with an id', async () => {
    const full = `${ESC}[33mwarning${ESC}[0m: everything\n${'more\n'.repeat(300)}`;
    const { client, calls } = fakeClient(() => new Response(JSON.stringify(storedCall(full))));
    const { update } = renderCard(
      makeCard({ status: 'running', toolCallId: 'tc1', startedAt: Date.now(), output: 'so far' }),
      client,
    );
    fireEvent.click(header());
    await screen.findByText('so far');
    update(makeCard({ status: 'completed', toolCallId: null, preview: 'x' }));
    await screen.findByText('x');
    expect(calls).toHaveLength(0);
    update(makeCard({ status: 'completed', toolCallId: 'tc1', preview: 'short', durationMs: 1000 }));
    expect((await screen.findByText('warning')).className).toBe('ansi-yellow-fg');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('http://x/api/tool-calls/tc1');
    expect(new Headers(calls[0]!.init?.headers).get('authorization')).toBe('Bearer t');
    expect(screen.getByRole('button', { name: 'Show all 301 lines' })).toBeTruthy();
    // Closed and opened again from memory, without another request.
    fireEvent.click(header());
    fireEvent.click(header());
    await screen.findByText('warning');
    expect(calls).toHaveLength(1);
  });

  it('shows loading, then an error it can retry', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      calls.push(String(input));
      await gate;
      if (fail) {
        return new Response(JSON.stringify({ error: { code: 'not_found', message: 'No tool call tc1.' } }), {
          status: 404,
        });
      }
      return new Response(JSON.stringify({ ...storedCall('the whole story'), is_error: true }));
    };
    const client = new CairnClient({ url: 'http://x', token: 't' }, fakeFetch);
    renderCard(makeCard({ status: 'failed', toolCallId: 'tc1', isError: true, preview: 'boom' }), client);
    fireEvent.click(header());
    expect(await screen.findByText('Loading the full result…')).toBeTruthy();
    expect(screen.getByText('boom')).toBeTruthy();
    release();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the full result: No tool call tc1.',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try loading the full result again' }));
    await waitFor(() => expect(screen.getByText('the whole story')).toBeTruthy());
    expect(calls).toHaveLength(2);
  });

  it('speaks Chinese', () => {
    renderCard(makeCard({ status: 'completed', durationMs: 1500 }), undefined, 'zh-CN');
    expect(header().textContent).toContain('完成');
    expect(header().textContent).toContain('1.5 秒');
  });
});

describe('ansiSegments', () => {
  it('drops control characters and keeps plain text unstyled', () => {
    expect(ansiSegments(`a${ESC}[2Kb\x07c\td`)).toEqual([{ text: 'abc\td', className: null, style: null }]);
  });
});
