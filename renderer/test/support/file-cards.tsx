import { fireEvent, render, screen } from '@testing-library/react';
import { CairnClient } from '../../../sidecar/src/client';
import type { ToolCallWithResult } from '../../../sidecar/src/protocol';
import { ToolCard } from '../../src/components/ToolCard';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { newCard, type ToolCardState } from '../../src/state/tool-items';
import { storedToolCall } from './tool-calls';

/** A finished call's card as the turn shows it: `tc1`, ended, with the given result preview. */
export function endedCard(
  name: string,
  input: Record<string, unknown>,
  patch: Partial<ToolCardState> = {},
): ToolCardState {
  return {
    ...newCard('tu1', name, input),
    toolCallId: 'tc1',
    status: 'completed',
    durationMs: 12,
    ...patch,
  };
}

/**
 * Renders the card with a client whose fetch answers the sidecar's routes the test gives: the call's whole
 * result (`/api/tool-calls/tc1`) and a Write's replaced text (`…/previous`, 404 unless given). Opens it.
 */
export function openCard(
  card: ToolCardState,
  /** `result: null`: no whole result is stored (its file is gone); the call keeps only its preview. */
  answers: { result: string | null; previous?: string },
  locale: Locale = 'en',
): { requests: string[] } {
  const requests: string[] = [];
  const fetcher: typeof fetch = async (input) => {
    const url = String(input);
    requests.push(url);
    if (url.endsWith('/api/tool-calls/tc1')) {
      const call: ToolCallWithResult = {
        ...storedToolCall({
          id: 'tc1',
          name: card.name,
          input: card.input,
          status: card.status === 'pending' ? 'running' : card.status,
          is_error: card.isError,
          meta: card.meta,
          preview: card.preview,
        }),
        result: answers.result,
      };
      return new Response(JSON.stringify(call));
    }
    if (url.endsWith('/api/tool-calls/tc1/previous') && answers.previous !== undefined) {
      return new Response(answers.previous, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    const error = { error: { code: 'not_found', message: 'Previous content of tool call tc1 not found' } };
    return new Response(JSON.stringify(error), { status: 404 });
  };
  const client = new CairnClient({ url: 'http://x', token: 't' }, fetcher);
  render(
    <I18nProvider locale={locale}>
      <ToolCard card={card} client={client} />
    </I18nProvider>,
  );
  fireEvent.click(screen.getAllByRole('button')[0]!);
  return { requests };
}

/** Stubs the clipboard and returns what was written to it. */
export function stubClipboard(): string[] {
  const written: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        written.push(text);
      },
    },
  });
  return written;
}
