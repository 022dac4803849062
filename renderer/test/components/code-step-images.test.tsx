// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { TurnWithDetails } from '../../../sidecar/src/protocol';
import { TurnBlock } from '../../src/components/TurnBlock';
import { I18nProvider } from '../../src/i18n/i18n';
import { NO_FILE_HISTORY, turnFromHistory } from '../../src/state/turn-view';
import '../support/lazy-bodies';
import { codeResult } from '../support/code-result';
import { storedToolCall } from '../support/tool-calls';

// A code step shows the images its cell displayed, as the execute_code card does: from the files of the
// step's result, each fetched by its id.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

function fakeSidecar(files: Record<string, { id: string; mime: string }[]>) {
  const fetched: string[] = [];
  const fakeFetch: typeof fetch = async (input) => {
    const path = new URL(String(input)).pathname;
    fetched.push(path);
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
    const callId = path.split('/api/tool-calls/')[1];
    if (callId !== undefined) {
      const call = storedToolCall({ id: callId, name: 'execute_code', input: {}, status: 'completed' });
      const shown = (files[callId] ?? []).map((f) => ({ ...f, path: `/a/${f.id}`, bytes: 4 }));
      return json({ ...call, result: JSON.stringify(codeResult({ files: shown })) });
    }
    if (path.startsWith('/api/artifacts/'))
      return new Response(PNG, { headers: { 'content-type': 'image/png' } });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }), {
      status: 404,
    });
  };
  return { fetched, client: new CairnClient({ url: 'http://sidecar.test', token: 't' }, fakeFetch) };
}

const message = (id: number, text: string) => ({
  id,
  turn_id: 't1',
  role: 'assistant' as const,
  content: [{ type: 'text', text }],
  internal: false,
  created_at: '',
});

/** Two steps: c1 plotted (its cell displayed a PNG), c2 only printed. */
function turn(): TurnWithDetails {
  const step = (id: string, messageId: number, code: string) =>
    storedToolCall({
      id,
      tool_use_id: `codestep_${messageId}`,
      name: 'execute_code',
      input: { code },
      status: 'completed',
      preview: '',
      finished_at: '2026-01-01T00:00:02.000Z',
      duration_ms: 30,
    });
  return {
    id: 't1',
    session_id: 's1',
    ordinal: 1,
    request_id: 'r',
    prompt: 'plot it',
    status: 'completed',
    error: null,
    usage: null,
    cost: null,
    ...NO_FILE_HISTORY,
    answer: null,
    continuations: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:05.000Z',
    messages: [message(11, 'Plot.\n<code>\nplt.plot([1, 2])\n'), message(12, 'Print.\n<code>\nprint(1)\n')],
    tool_calls: [step('c1', 11, 'plt.plot([1, 2])\n'), step('c2', 12, 'print(1)\n')],
    questions: [],
    compactions: [],
  };
}

async function show(files: Record<string, { id: string; mime: string }[]>) {
  const sidecar = fakeSidecar(files);
  render(
    <I18nProvider locale="en">
      <TurnBlock
        view={turnFromHistory(turn())}
        client={sidecar.client}
        onAnswer={async () => undefined}
        onRetry={() => undefined}
        onOpenSettings={() => undefined}
      />
    </I18nProvider>,
  );
  const [plotted, printed] = screen.getAllByRole('region', { name: 'Code step' }) as [
    HTMLElement,
    HTMLElement,
  ];
  return { ...sidecar, plotted, printed };
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("a code step's images", () => {
  it('shows the PNG its cell displayed, fetched as the artifact; a step whose cell showed none has no image', async () => {
    const { fetched, plotted, printed } = await show({
      c1: [{ id: 'art-1', mime: 'image/png' }],
      c2: [],
    });
    const img = (await within(plotted).findByRole('img', {
      name: 'Image from the code (image/png)',
    })) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(fetched).toContain('/api/artifacts/art-1');
    await within(printed).findByText('No output');
    expect(printed.querySelector('img')).toBeNull();
    expect(fetched.filter((f) => f.startsWith('/api/artifacts/'))).toEqual(['/api/artifacts/art-1']);
  });
});
