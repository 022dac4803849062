// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { ToolCard } from '../../src/components/ToolCard';
import { failingExcerpt } from '../../src/components/tool-cards/CodeError';
import { artifactId, parseCodeResult } from '../../src/components/tool-cards/code-result';
import { HTML_OUTPUT_CSP, htmlOutputSrcdoc } from '../../src/components/tool-cards/html-srcdoc';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { newCard } from '../../src/state/tool-items';
import type { ToolCardState } from '../../src/state/turn-view';
import '../support/lazy-bodies';
import { codeResult } from '../support/code-result';
import { storedToolCall } from '../support/tool-calls';

const CODE = '# plot squares\nxs = [1, 2, 3]\nys = [x * x for x in xs]\nprint(ys[5])\nys';

const FAILED = codeResult({
  success: false,
  stdout: 'before the error\n',
  error: 'IndexError: list index out of range (line 4)',
  error_details: {
    type: 'IndexError',
    message: 'list index out of range',
    line: 4,
    column: 7,
    snippet: 'print(ys[5])',
    pointer: '      ^^^^^',
    traceback: 'Cell In[1], line 4\n    print(ys[5])\nIndexError: list index out of range',
  },
});

function storedCall(result: string) {
  const stored = storedToolCall({
    id: 'tc1',
    name: 'execute_code',
    input: { code: CODE },
    status: 'completed',
  });
  return { ...stored, preview: result.slice(0, 20), result };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A client over a fake fetch: the stored call for /api/tool-calls, the artifacts by id. */
function fakeClient(result: string, artifacts: Record<string, { body: BodyInit; type: string }> = {}) {
  const urls: string[] = [];
  const fakeFetch: typeof fetch = async (input) => {
    const url = String(input);
    urls.push(url);
    if (url.endsWith('/api/tool-calls/tc1')) return new Response(JSON.stringify(storedCall(result)));
    const id = decodeURIComponent(url.split('/api/artifacts/')[1] ?? '');
    const artifact = artifacts[id];
    if (!artifact) {
      return new Response(JSON.stringify({ error: { code: 'not_found', message: `No artifact ${id}.` } }), {
        status: 404,
      });
    }
    return new Response(artifact.body, { headers: { 'content-type': artifact.type } });
  };
  return { client: new CairnClient({ url: 'http://x', token: 't' }, fakeFetch), urls };
}

function codeCard(patch: Partial<ToolCardState> = {}): ToolCardState {
  return {
    ...newCard('tu1', 'execute_code', { code: CODE }),
    status: 'completed',
    toolCallId: 'tc1',
    durationMs: 1000,
    preview: '{"success": true, "std',
    ...patch,
  };
}

function openCard(card: ToolCardState, client: CairnClient, locale: Locale = 'en') {
  const view = render(
    <I18nProvider locale={locale}>
      <ToolCard card={card} client={client} />
    </I18nProvider>,
  );
  fireEvent.click(screen.getAllByRole('button')[0]!);
  return view;
}

// The card's body loads lazily; loaded once here, so no test waits on the first import's time.
beforeAll(async () => {
  await import('../../src/components/tool-cards/CodeBody');
});

afterEach(cleanup);

describe('parseCodeResult', () => {
  it('reads the fields of a result and leaves other JSON and text alone', () => {
    const parsed = parseCodeResult(JSON.stringify(FAILED));
    expect(parsed?.errorDetails).toMatchObject({ type: 'IndexError', line: 4, pointer: '      ^^^^^' });
    expect(parsed?.stdout).toBe('before the error\n');
    expect(parseCodeResult('{"success": true, "std')).toBeNull();
    expect(parseCodeResult('{"variables": []}')).toBeNull();
    expect(parseCodeResult('Error: no kernel')).toBeNull();
  });

  it("takes a file's id, or the id its saved name carries in older results", () => {
    expect(artifactId({ id: 'art_given', path: '/d/art_other.png' })).toBe('art_given');
    expect(artifactId({ path: '/data/artifacts/art_Ab-9_x.svg' })).toBe('art_Ab-9_x');
    expect(artifactId({ path: '/tmp/plot.png' })).toBeNull();
  });

  it('cuts the lines around the failing one', () => {
    expect(failingExcerpt(CODE, 4).map((l) => [l.number, l.failing])).toEqual([
      [2, false],
      [3, false],
      [4, true],
      [5, false],
    ]);
    expect(failingExcerpt(CODE, 99)).toEqual([]);
  });
});

describe('the execute_code card', () => {
  it('shows a failed cell with its error first and the failing line pointed at', async () => {
    const { client } = fakeClient(JSON.stringify(FAILED));
    const { container } = openCard(codeCard({ status: 'failed', isError: true }), client);
    const error = await screen.findByRole('region', { name: 'Error' });
    const sections = [...container.querySelectorAll('.tool-card-section')];
    expect(sections[0]).toBe(error);
    expect(error.querySelector('.code-card-error-type')?.textContent).toBe('IndexError');
    expect(error.textContent).toContain('list index out of range');
    expect(error.textContent).toContain('Line 4');
    const failing = error.querySelector('.code-card-line--failing')!;
    expect(failing.textContent).toContain('print(ys[5])');
    expect(failing.textContent).toContain('→ 4');
    // The carets sit under the failing part: the same prefix width as the numbered line.
    const pointer = failing.querySelector('.code-card-pointer')!.textContent!;
    const line = failing.textContent!.split('\n')[0]!;
    expect(line.indexOf('ys[5]')).toBe(pointer.indexOf('^'));
    // The traceback is there, folded.
    const traceback = error.querySelector('details')!;
    expect(traceback.open).toBe(false);
    expect(traceback.textContent).toContain('Cell In[1], line 4');
    // Then the code as Python and the output that came before the error.
    expect(sections[1]!.getAttribute('aria-label')).toBe('Code');
    expect(container.querySelector('.code-view')?.textContent).toContain('# plot squares');
    expect(screen.getByText('before the error')).toBeTruthy();
  });

  it('fetches images by id and shows them from memory, SVG as an image too', async () => {
    const files = [
      { id: 'art_png1', path: '/a/art_png1.png', mime: 'image/png', bytes: 8 },
      { path: '/a/art_svg1.svg', mime: 'image/svg+xml', bytes: 40 },
    ];
    const { client, urls } = fakeClient(JSON.stringify(codeResult({ files, return_value: '42' })), {
      art_png1: { body: PNG, type: 'image/png' },
      art_svg1: {
        body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        type: 'image/svg+xml',
      },
    });
    const { container } = openCard(codeCard(), client);
    await waitFor(() => expect(container.querySelectorAll('img.code-card-image')).toHaveLength(2));
    expect(urls).toContain('http://x/api/artifacts/art_png1');
    expect(urls).toContain('http://x/api/artifacts/art_svg1');
    // A raster image from memory; an SVG as a data: URL, which opens with an origin of its own.
    const srcs = [...container.querySelectorAll('img.code-card-image')].map((img) => img.getAttribute('src'));
    expect(srcs[0]?.startsWith('blob:')).toBe(true);
    expect(srcs[1]?.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(container.querySelector('svg script')).toBeNull();
    expect(screen.getByRole('img', { name: 'Image from the code (image/png)' })).toBeTruthy();
    expect(container.querySelector('[data-stream="value"]')?.textContent).toContain('42');
  });

  it('shows HTML output in a frame sandboxed without any permission, its policy first', async () => {
    const html = '<b>table</b><script>parent.document.title = "owned"</script>';
    const files = [{ id: 'art_html', path: '/a/art_html.html', mime: 'text/html', bytes: html.length }];
    const { client } = fakeClient(JSON.stringify(codeResult({ files })), {
      art_html: { body: html, type: 'text/html' },
    });
    const { container } = openCard(codeCard(), client);
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    const frame = container.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('');
    const srcdoc = frame.getAttribute('srcdoc')!;
    expect(srcdoc).toBe(htmlOutputSrcdoc(html));
    expect(
      srcdoc.indexOf(`<meta http-equiv="Content-Security-Policy" content="${HTML_OUTPUT_CSP}">`),
    ).toBeLessThan(srcdoc.indexOf('<b>'));
    expect(HTML_OUTPUT_CSP).toContain("default-src 'none'");
    expect(frame.hasAttribute('src')).toBe(false);
  });

  it('lists other files with a download, and marks stderr', async () => {
    const files = [{ id: 'art_pdf', path: '/a/art_pdf.pdf', mime: 'application/pdf', bytes: 2048 }];
    const { client } = fakeClient(
      JSON.stringify(codeResult({ files, stdout: 'out\n', stderr: 'careful\n' })),
    );
    const { container } = openCard(codeCard(), client);
    expect(await screen.findByRole('button', { name: 'Download art_pdf.pdf' })).toBeTruthy();
    expect(container.querySelector('.code-card-file')?.textContent).toContain('application/pdf · 2 kB');
    const stderr = container.querySelector('[data-stream="stderr"]')!;
    expect(stderr.textContent).toContain('Error output (stderr)');
    expect(stderr.querySelector('.tool-card-pre--error')?.textContent).toContain('careful');
  });

  it('says when a limit stopped the cell and the kernel lost its state, in Chinese too', async () => {
    const result = codeResult({
      success: false,
      error: 'KeyboardInterrupt: interrupted',
      error_details: {
        type: 'KeyboardInterrupt',
        message: 'interrupted',
        line: null,
        column: null,
        snippet: null,
        pointer: null,
        traceback: '',
      },
      limit: { kind: 'active_time', limit_ms: 30_000, action: 'killed_and_restarted' },
      state_lost: 'the kernel was killed to enforce the time limit',
    });
    const { client } = fakeClient(JSON.stringify(result));
    openCard(codeCard({ status: 'failed', isError: true }), client, 'zh-CN');
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('运行 30 秒后被停止（内核已重启）');
    expect(note.textContent).toContain('内核已重启，变量已丢失');
  });

  it('lays out a stopped cell: the JSON object, then the line saying why it stopped', async () => {
    // The text sidecar/src/tools/runtime/call-outcome.ts `stopped()` stores: the tool's content
    // (kernel-result.ts: JSON.stringify(body, null, 1)), a newline, then the stop message.
    const body = codeResult({
      success: false,
      stdout: 'started\n',
      error: 'KeyboardInterrupt',
      error_details: {
        type: 'KeyboardInterrupt',
        message: '',
        line: 3,
        column: null,
        snippet: 'time.sleep(60)',
      },
    });
    const stored = `${JSON.stringify(body, null, 1)}\nThe call was cancelled; everything it started was stopped.`;
    expect(parseCodeResult(stored)?.note).toBe('The call was cancelled; everything it started was stopped.');
    const { client } = fakeClient(stored);
    const { container } = openCard(codeCard({ status: 'cancelled', isError: true }), client);
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe('The call was cancelled; everything it started was stopped.');
    expect(container.querySelector('[data-stream="stdout"]')?.textContent).toContain('started');
    expect(container.querySelector('.code-card-error')?.textContent).toContain('KeyboardInterrupt');
    expect(container.textContent).not.toContain('"success"');
  });

  it('says why a stopped cell stopped in Chinese too', async () => {
    const stored = `${JSON.stringify(codeResult(), null, 1)}\nThe call timed out and was stopped with everything it started.`;
    const { client } = fakeClient(stored);
    openCard(codeCard({ status: 'failed', isError: true }), client, 'zh-CN');
    expect((await screen.findByRole('note')).textContent).toBe('调用超时，已连同它启动的一切一起停止。');
  });

  it('shows a result of another shape as text, the way other tools do', async () => {
    const { client } = fakeClient('Error: the kernel could not start; install ipykernel.');
    const { container } = openCard(codeCard({ status: 'failed', isError: true }), client);
    expect(await screen.findByText('Error: the kernel could not start; install ipykernel.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Arguments' })).toBeTruthy();
    expect(container.querySelector('.code-card-error')).toBeNull();
  });

  it('shows the preview as text when an ended call has no whole result to load', async () => {
    const { client, urls } = fakeClient('');
    openCard(codeCard({ toolCallId: null, preview: 'interrupted before it ran' }), client);
    expect(await screen.findByText('interrupted before it ran')).toBeTruthy();
    expect(urls).toEqual([]);
  });

  it('shows the code and the live output while the cell runs, and fetches nothing', () => {
    const { client, urls } = fakeClient('');
    const { container } = openCard(
      codeCard({
        status: 'running',
        toolCallId: 'tc1',
        startedAt: Date.now(),
        output: 'step 1\n',
        preview: null,
      }),
      client,
    );
    return waitFor(() => {
      expect(container.querySelector('.code-view')?.textContent).toContain('ys = [x * x for x in xs]');
      expect(screen.getByText('step 1')).toBeTruthy();
      expect(urls).toEqual([]);
    });
  });
});
