// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ForkInfo } from '../../../sidecar/src/protocol';
import { ForkGroup } from '../../src/components/forks/ForkGroup';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';

// The forks group under a turn: a row per fork with its task and status, its response folded when long,
// a failed fork's error, and "Open" for each.

const fork = (patch: Partial<ForkInfo> & { fork_id: string }): ForkInfo => ({
  turn_id: 't1',
  task: `Task ${patch.fork_id}`,
  status: 'queued',
  response: null,
  created_at: new Date().toISOString(),
  ...patch,
});

const LONG = ['# Findings', '', '- one', '- two', '- three', '- four', '', 'The **end**.'].join('\n');

function show(forks: ForkInfo[], locale: Locale = 'en') {
  const onOpen = vi.fn();
  render(
    <I18nProvider locale={locale}>
      <ForkGroup forks={forks} onOpen={onOpen} />
    </I18nProvider>,
  );
  return onOpen;
}

afterEach(() => cleanup());

describe('ForkGroup', () => {
  it('lists each fork with its status, folds a long response, and opens a fork', () => {
    const onOpen = show([
      fork({ fork_id: 'f1', task: 'Read the parser', status: 'running' }),
      fork({ fork_id: 'f2', task: 'Summarize the docs', status: 'completed', response: LONG }),
      fork({ fork_id: 'f3', task: 'Try the build', status: 'failed', response: 'model overloaded' }),
      fork({ fork_id: 'f4', task: 'Short one', status: 'completed', response: 'Just **this**.' }),
    ]);
    const group = screen.getByRole('region', { name: 'Forks' });
    expect(group.textContent).toContain('4');
    const list = within(group).getByRole('list', { name: 'Forks this turn spawned' });
    const rows = [...list.children] as HTMLElement[];
    expect(rows.map((r) => r.getAttribute('data-fork-id'))).toEqual(['f1', 'f2', 'f3', 'f4']);

    // Running: its status and the time since it was spawned; no response yet.
    expect(rows[0]!.textContent).toContain('Read the parser');
    expect(rows[0]!.textContent).toContain('Running');
    expect(rows[0]!.querySelector('.fork-row-elapsed')?.textContent).toMatch(/\d s$/);
    expect(rows[0]!.querySelector('.fork-response')).toBeNull();

    // A long response as Markdown, folded, with a toggle that unfolds it.
    expect(rows[1]!.textContent).toContain('Done');
    expect(within(rows[1]!).getByRole('heading', { name: 'Findings' })).toBeTruthy();
    const toggle = within(rows[1]!).getByRole('button', { name: 'Show all' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(rows[1]!.querySelector('.fork-response--folded')).not.toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Show less');
    expect(rows[1]!.querySelector('.fork-response--folded')).toBeNull();

    // A failed fork's response is its error, in words; a short response has nothing to unfold.
    expect(rows[2]!.textContent).toContain('Failed');
    expect(within(rows[2]!).getByText('It failed: model overloaded')).toBeTruthy();
    expect(within(rows[3]!).getByText('this').tagName).toBe('STRONG');
    expect(within(rows[3]!).queryByRole('button', { name: 'Show all' })).toBeNull();

    fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Open the fork “Try the build”' }));
    expect(onOpen).toHaveBeenCalledWith('f3');
  });

  it('in Chinese', () => {
    show([fork({ fork_id: 'f1', task: '检查测试', status: 'interrupted' })], 'zh-CN');
    const group = screen.getByRole('region', { name: '分支' });
    expect(group.textContent).toContain('已中断');
    expect(within(group).getByRole('button', { name: '打开分支“检查测试”' })).toBeTruthy();
  });
});
