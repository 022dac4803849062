// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Turn } from '../../../sidecar/src/protocol';
import { ThinkingBlock } from '../../src/components/ThinkingBlock';
import { TurnNote } from '../../src/components/TurnNote';
import { TurnStatusLine } from '../../src/components/TurnStatusLine';
import { TurnUsage } from '../../src/components/TurnUsage';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { NO_FILE_HISTORY } from '../../src/state/turn-view';

function makeTurn(patch: Partial<Turn> = {}): Turn {
  return {
    id: 't1',
    session_id: 's1',
    ordinal: 1,
    request_id: 'r1',
    prompt: 'Fix the build',
    status: 'completed',
    error: null,
    usage: null,
    continuations: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:05.000Z',
    answer: null,
    cost: null,
    ...NO_FILE_HISTORY,
    ...patch,
  };
}

const renderIn = (node: ReactNode, locale: Locale = 'en') =>
  render(<I18nProvider locale={locale}>{node}</I18nProvider>);

afterEach(cleanup);

describe('TurnStatusLine', () => {
  it('shows a failed turn’s error and retries', () => {
    const onRetry = vi.fn();
    renderIn(
      <TurnStatusLine
        turn={makeTurn({
          status: 'failed',
          error: { code: 'model_error', message: 'The model is overloaded.' },
        })}
        onRetry={onRetry}
      />,
    );
    expect(screen.getByText('This turn failed: The model is overloaded.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('offers Settings when the failure is about the key, and only then', () => {
    const onOpenSettings = vi.fn();
    const { unmount } = renderIn(
      <TurnStatusLine
        turn={makeTurn({ status: 'failed', error: { code: 'model_no_key', message: 'No API key.' } })}
        onOpenSettings={onOpenSettings}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(onOpenSettings).toHaveBeenCalledTimes(1);
    unmount();
    renderIn(
      <TurnStatusLine
        turn={makeTurn({ status: 'failed', error: { code: 'model_overloaded', message: 'Busy.' } })}
        onOpenSettings={onOpenSettings}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Open settings' })).toBeNull();
  });

  it('explains an interrupted turn and retries', () => {
    const onRetry = vi.fn();
    renderIn(
      <TurnStatusLine
        turn={makeTurn({ status: 'interrupted', error: { code: 'interrupted', message: 'server_restart' } })}
        onRetry={onRetry}
      />,
    );
    expect(screen.getByText(/^Cairn stopped while this turn was running/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has no Retry without onRetry', () => {
    renderIn(<TurnStatusLine turn={makeTurn({ status: 'failed', error: null })} />);
    expect(screen.getByText('This turn failed.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says Cancelled quietly and nothing for completed or running turns', () => {
    const { container, rerender } = renderIn(
      <TurnStatusLine turn={makeTurn({ status: 'cancelled' })} onRetry={vi.fn()} />,
    );
    expect(container.textContent).toBe('Cancelled');
    expect(screen.queryByRole('button')).toBeNull();
    for (const status of ['completed', 'running'] as const) {
      rerender(
        <I18nProvider locale="en">
          <TurnStatusLine turn={makeTurn({ status })} onRetry={vi.fn()} />
        </I18nProvider>,
      );
      expect(container.innerHTML).toBe('');
    }
  });

  it('speaks Chinese', () => {
    renderIn(<TurnStatusLine turn={makeTurn({ status: 'cancelled' })} />, 'zh-CN');
    expect(screen.getByText('已取消')).toBeTruthy();
  });
});

describe('ThinkingBlock', () => {
  it('is collapsed and says Thinking… while streaming', () => {
    renderIn(<ThinkingBlock text="Let me look at the tests first." streaming />);
    const toggle = screen.getByRole('button', { name: 'Thinking…' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Let me look at the tests first.')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Let me look at the tests first.')).toBeTruthy();
  });

  it('says Thought when done', () => {
    renderIn(<ThinkingBlock text="Done thinking." streaming={false} />);
    expect(screen.getByRole('button', { name: 'Thought' })).toBeTruthy();
  });
});

describe('TurnNote', () => {
  it('says the output limit was reached and explains on demand', () => {
    renderIn(<TurnNote note="max_tokens" attempt={1} maxAttempts={5} />);
    const toggle = screen.getByRole('button', { name: 'Output limit reached — continuing (1/5)' });
    expect(screen.queryByText(/carry on where it left off/)).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(/up to 5 times in one turn/)).toBeTruthy();
  });

  it('leaves out attempt numbers it does not know', () => {
    renderIn(<TurnNote note="max_tokens" attempt={0} maxAttempts={0} />);
    expect(screen.getByRole('button', { name: 'Output limit reached — continued' })).toBeTruthy();
  });

  it('explains a cut-off tool call', () => {
    renderIn(<TurnNote note="truncated_tool_call" attempt={2} maxAttempts={5} />);
    fireEvent.click(
      screen.getByRole('button', { name: 'A tool call was cut off; asked the model for smaller steps' }),
    );
    expect(screen.getByText(/incomplete call was discarded, not run/)).toBeTruthy();
  });

  it('speaks Chinese', () => {
    renderIn(<TurnNote note="max_tokens" attempt={2} maxAttempts={5} />, 'zh-CN');
    expect(screen.getByRole('button', { name: '已达输出上限，正在继续（2/5）' })).toBeTruthy();
  });
});

describe('TurnUsage', () => {
  const usage = {
    input_tokens: 12470,
    output_tokens: 403,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };

  it('shows a finished turn’s tokens, and what the prompt cache served and stored when it did', () => {
    const { container, rerender } = renderIn(<TurnUsage turn={makeTurn({ usage })} />);
    expect(container.textContent).toBe('12,470 in · 403 out');
    rerender(
      <I18nProvider locale="en">
        <TurnUsage
          turn={makeTurn({
            usage: { ...usage, cache_read_input_tokens: 594072, cache_creation_input_tokens: 3100 },
          })}
        />
      </I18nProvider>,
    );
    expect(container.textContent).toBe('12,470 in · 594,072 from cache · 3,100 to cache · 403 out');
  });

  it('says nothing while the turn runs or when it has no usage', () => {
    expect(renderIn(<TurnUsage turn={makeTurn({ status: 'running', usage })} />).container.textContent).toBe(
      '',
    );
    cleanup();
    expect(renderIn(<TurnUsage turn={makeTurn()} />).container.textContent).toBe('');
  });
});
