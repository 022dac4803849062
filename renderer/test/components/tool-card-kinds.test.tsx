// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { ToolCard } from '../../src/components/ToolCard';
import { callKind, mcpNames } from '../../src/components/tool-cards/call-kind';
import { codePurpose, summarizeCall } from '../../src/components/tool-cards/call-summary';
import { headAndTail } from '../../src/components/tool-cards/head-tail';
import { parseMcpResultFile, withoutSavedNote } from '../../src/components/tool-cards/mcp-attachments';
import { shellPieces } from '../../src/components/tool-cards/ShellLine';
import type { Locale } from '../../src/i18n/catalog';
import { ZH_CN_CATALOG } from '../../src/i18n/catalog-zh-CN';
import { I18nProvider } from '../../src/i18n/i18n';
import { newCard } from '../../src/state/tool-items';
import type { ToolCardState } from '../../src/state/turn-view';
import { EN_ALL } from '../support/english';
import { storedToolCall } from '../support/tool-calls';
import '../support/lazy-bodies';

const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const CATALOG = { en: EN_ALL, 'zh-CN': ZH_CN_CATALOG };
function translate(locale: Locale) {
  return (key: string, params: Record<string, string | number> = {}) =>
    (CATALOG[locale][key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}
const t = translate('en');

function card(name: string, input: unknown, patch: Partial<ToolCardState> = {}): ToolCardState {
  return { ...newCard('tu1', name, input), ...patch };
}

function storedCall(name: string, input: unknown, result: string, isError = false) {
  const status = isError ? 'failed' : 'completed';
  return { ...storedToolCall({ id: 'tc1', name, input, status, is_error: isError }), result };
}

function clientFor(routes: Record<string, () => Response>) {
  const urls: string[] = [];
  const fakeFetch: typeof fetch = async (input) => {
    const url = String(input).replace('http://x', '');
    urls.push(url);
    const route = routes[url];
    return route
      ? route()
      : new Response(JSON.stringify({ error: { code: 'not_found', message: url } }), { status: 404 });
  };
  return { client: new CairnClient({ url: 'http://x', token: 't' }, fakeFetch), urls };
}

afterEach(cleanup);

describe('summarizeCall', () => {
  it.each([
    ['Bash', { command: 'npm test' }, null, 'npm test'],
    [
      'Edit',
      { path: 'src/app.ts', old_string: 'a\nb\nc', new_string: 'a\nB\nc\nd' },
      null,
      'src/app.ts (+2 −1)',
    ],
    [
      'Edit',
      { path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true },
      null,
      'a.ts (+1 −1, every occurrence)',
    ],
    ['Write', { path: 'notes.md', content: 'one\ntwo\n' }, null, 'notes.md (2 lines)'],
    ['Read', { path: 'src/a.ts', offset: 10, limit: 50 }, null, 'src/a.ts (lines 10–59)'],
    ['Read', { path: 'src/a.ts' }, null, 'src/a.ts'],
    ['Grep', { pattern: 'TODO', path: 'src' }, null, 'TODO in src'],
    ['Glob', { pattern: '**/*.ts' }, null, '**/*.ts'],
    [
      'execute_code',
      { code: 'import matplotlib\n# plot squares\nplt.plot([1, 4, 9])' },
      { outputs: ['image/png'] },
      'plot squares (image)',
    ],
    ['execute_code', { code: '\n1 + 1\n' }, null, '1 + 1'],
    ['mcp__everything__echo', { message: 'hi', n: 2 }, null, 'message: hi, n: 2'],
    ['custom', { a: { b: 1 } }, null, 'a: {"b":1}'],
    [
      'Fork',
      { method: 'spawn', arguments: { task: 'Count the TODOs' } },
      null,
      'spawn · task: Count the TODOs',
    ],
  ])('%s %j → %s', (name, input, meta, expected) => {
    const summary = summarizeCall({ name, input, meta: meta as Record<string, unknown> | null }, t);
    expect(summary).toBe(expected);
    expect(summary.startsWith('{')).toBe(false);
  });

  it('speaks Chinese', () => {
    expect(
      summarizeCall(
        { name: 'Write', input: { path: 'a.md', content: 'x\ny' }, meta: null },
        translate('zh-CN'),
      ),
    ).toBe('a.md (2 行)');
  });

  it('names the purpose of a cell by its first comment, not a shebang', () => {
    expect(codePurpose('#!/usr/bin/env python\n#   load the data\nx = 1')).toBe('load the data');
    expect(codePurpose('#\nprint(1)')).toBe('print(1)');
    // Encoding lines, cell markers and pragmas say nothing; a comment deep in the cell is about its part.
    expect(codePurpose('# -*- coding: utf-8 -*-\n# train the model\nfit()')).toBe('train the model');
    expect(codePurpose('#%%\n# In[3]:\nenc = x.encode(encoding="utf-8")')).toBe(
      'enc = x.encode(encoding="utf-8")',
    );
    const late = ['import numpy as np', 'a = 1', 'b = 2', 'c = 3', 'd = 4', 'e = 5', '# TODO: tidy'].join(
      '\n',
    );
    expect(codePurpose(late)).toBe('import numpy as np');
  });
});

describe('call kinds', () => {
  it('splits an MCP name into server and tool, and knows the built-in tools', () => {
    expect(mcpNames('mcp__files__read_file')).toEqual({ server: 'files', tool: 'read_file' });
    expect(mcpNames('mcp__broken')).toBeNull();
    expect(callKind('mcp__files__read_file')).toBe('mcp');
    expect(callKind('Exec')).toBe('shell');
    expect(callKind('execute_code')).toBe('code');
    expect(callKind('LoadTool')).toBe('generic');
  });

  it('keeps the head and tail of long text and says how much is between', () => {
    const text = Array.from({ length: 100 }, (_, i) => `l${i + 1}`).join('\n');
    const parts = headAndTail(text, 3, 2);
    expect(parts).toEqual({ head: 'l1\nl2\nl3', tail: 'l99\nl100', omittedLines: 95, totalLines: 100 });
    expect(headAndTail('a\nb\n', 3, 2)).toEqual({ head: 'a\nb', tail: null, omittedLines: 0, totalLines: 2 });
  });
});

describe('MCP card', () => {
  const name = 'mcp__everything__get_image';
  const note =
    '[2 non-text items (image image/png, resource text/plain) saved to mcp_result.json; the user can open them in Cairn.]';
  const file = JSON.stringify({
    server: 'everything',
    tool: 'get_image',
    is_error: false,
    content: [
      { type: 'image', mimeType: 'image/png', data: PIXEL },
      { type: 'resource', uri: 'file:///tmp/readme.txt', mimeType: 'text/plain', text: 'hello', data: null },
    ],
  });

  it('strips only our own note about saved items', () => {
    expect(withoutSavedNote(`**Here** it is\n\n${note}`)).toEqual({ text: '**Here** it is', saved: true });
    expect(withoutSavedNote('[1 thing] said the server')).toEqual({
      text: '[1 thing] said the server',
      saved: false,
    });
    expect(parseMcpResultFile('not json')).toEqual([]);
    expect(parseMcpResultFile(file)).toHaveLength(2);
  });

  it('shows server and tool, arguments as a form, Markdown text, the image inline and the file to download', async () => {
    const { client, urls } = clientFor({
      '/api/tool-calls/tc1': () =>
        new Response(JSON.stringify(storedCall(name, { size: 'small' }, `**Here** it is\n\n${note}`))),
      '/api/tool-calls/tc1/mcp-result': () =>
        new Response(file, { headers: { 'content-type': 'application/json' } }),
    });
    const { container } = render(
      <I18nProvider locale="en">
        <ToolCard
          card={card(
            name,
            { size: 'small' },
            { toolCallId: 'tc1', status: 'completed', preview: '**Here**' },
          )}
          client={client}
        />
      </I18nProvider>,
    );
    const header = screen.getAllByRole('button')[0]!;
    expect(header.textContent).toContain('get_image');
    expect(header.textContent).toContain('everything');
    expect(header.textContent).toContain('size: small');
    fireEvent.click(header);
    expect((await screen.findByText('Here')).tagName).toBe('STRONG');
    const image = (await screen.findByRole('img', { name: 'Image 1 from the tool' })) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe(`data:image/png;base64,${PIXEL}`);
    expect(screen.getByRole('button', { name: 'Download readme.txt' })).toBeTruthy();
    expect(screen.getByText('MCP server everything, tool get_image')).toBeTruthy();
    expect(container.querySelector('.tool-args-key')?.textContent).toBe('size');
    expect(container.textContent).not.toContain('mcp_result.json;');
    expect(urls).toEqual(['/api/tool-calls/tc1', '/api/tool-calls/tc1/mcp-result']);
  });

  it('shows a failed call’s error first', async () => {
    const { client } = clientFor({
      '/api/tool-calls/tc1': () =>
        new Response(JSON.stringify(storedCall(name, {}, 'the server said no', true))),
    });
    const { container } = render(
      <I18nProvider locale="en">
        <ToolCard
          card={card(
            name,
            { size: 'big' },
            { toolCallId: 'tc1', status: 'failed', isError: true, preview: 'the server' },
          )}
          client={client}
        />
      </I18nProvider>,
    );
    fireEvent.click(screen.getAllByRole('button')[0]!);
    await screen.findByText('the server said no');
    const labels = [...container.querySelectorAll('.tool-card-label')].map((h) => h.textContent);
    expect(labels[0]).toBe('Error');
  });
});

describe('Bash card', () => {
  it('shows a failed command’s exit code and output before the command', async () => {
    const { client } = clientFor({
      '/api/tool-calls/tc1': () =>
        new Response(
          JSON.stringify(storedCall('Bash', { command: 'npm test' }, 'FAIL src/a.test.ts\n1 failed', true)),
        ),
    });
    const { container } = render(
      <I18nProvider locale="en">
        <ToolCard
          card={card(
            'Bash',
            { command: 'npm test' },
            {
              toolCallId: 'tc1',
              status: 'failed',
              isError: true,
              exitCode: 1,
              durationMs: 2300,
              preview: 'FAIL',
            },
          )}
          client={client}
        />
      </I18nProvider>,
    );
    fireEvent.click(screen.getAllByRole('button')[0]!);
    await screen.findByText(/1 failed/);
    const labels = [...container.querySelectorAll('.tool-card-label')].map((h) => h.textContent);
    expect(labels).toEqual(['Error', 'Command']);
    expect(container.querySelector('.tool-card-facts')?.textContent).toBe('Exit code 1 · 2.3 s');
  });
});

describe('a command in the collapsed line', () => {
  it('tells programs, flags, strings and operators apart', () => {
    const pieces = shellPieces(`FOO=1 npm test -- --watch && echo 'it passed' | tee "out log"`);
    const of = (kind: string) => pieces.filter((p) => p.kind === kind).map((p) => p.text);
    expect(of('program')).toEqual(['npm', 'echo', 'tee']);
    expect(of('flag')).toEqual(['--', '--watch']);
    expect(of('string')).toEqual([`'it passed'`, '"out log"']);
    expect(of('operator')).toEqual(['&&', '|']);
    expect(pieces.map((p) => p.text).join('')).toBe(
      `FOO=1 npm test -- --watch && echo 'it passed' | tee "out log"`,
    );
  });

  it('colours the command in a Bash card’s header, keeping its text whole', () => {
    const { container } = render(
      <I18nProvider locale="en">
        <ToolCard card={card('Bash', { command: 'git status && ls -la' })} client={clientFor({}).client} />
      </I18nProvider>,
    );
    const summary = container.querySelector('.tool-card-summary')!;
    expect(summary.textContent).toBe('git status && ls -la');
    expect([...summary.querySelectorAll('.shell-program')].map((e) => e.textContent)).toEqual(['git', 'ls']);
  });
});

describe('reading an MCP result', () => {
  it('finds the note in one pass over a result of many lines', () => {
    const lines = '\n'.repeat(200_000);
    expect(withoutSavedNote(`${lines}x`)).toEqual({ text: `${lines}x`, saved: false });
    const note =
      '[1 non-text item (image image/png) saved to mcp_result.json; the user can open it in Cairn.]';
    expect(withoutSavedNote(`${lines}text\n\n${note}\n`)).toEqual({ text: `${lines}text`, saved: true });
  });
});
