// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseListResult } from '../../src/components/tool-cards/list-result';
import { endedCard, openCard, stubClipboard } from '../support/file-cards';
import '../support/lazy-bodies';

afterEach(cleanup);

/** Lines as Read numbers them (sidecar/src/tools/builtin/read.ts). */
function numbered(from: number, lines: string[]): string {
  return lines.map((line, i) => `${String(from + i).padStart(6)}\t${line}`).join('\n');
}

describe('Read card', () => {
  it('shows the range read, its lines highlighted, and their numbers beside them', async () => {
    const result = `${numbered(10, ['const a = 1;', 'export { a };'])}\n\n[Showing lines 10-11 of 40; continue with offset=12.]`;
    openCard(endedCard('Read', { path: 'src/a.ts', offset: 10, limit: 2 }), { result });
    const section = await screen.findByRole('region', { name: 'Lines read' });
    expect(await within(section).findByText('Lines 10–11 of 40')).toBeTruthy();
    expect(section.querySelector('.read-gutter')?.textContent).toBe('10\n11');
    const code = await waitFor(() => {
      const found = section.querySelector('code.language-typescript');
      if (!found) throw new Error('no highlighted code yet');
      return found;
    });
    // The numbers and the tab are in the gutter, not in the code.
    expect(code.textContent).toBe('const a = 1;\nexport { a };\n');
    await waitFor(() => expect(code.querySelector('.hljs-keyword')?.textContent).toBe('const'));
    expect(within(section).getByText('More follows from line 12.')).toBeTruthy();
    expect(section.textContent).not.toContain('[Showing lines');
  });

  it('says a whole file was read, and copies its lines without their numbers', async () => {
    const copied = stubClipboard();
    openCard(endedCard('Read', { path: 'notes' }), { result: numbered(1, ['one', 'two', 'three']) });
    const section = await screen.findByRole('region', { name: 'Lines read' });
    expect(await within(section).findByText('Whole file, 3 lines')).toBeTruthy();
    expect(section.querySelector('.read-gutter')?.textContent).toBe('1\n2\n3');
    fireEvent.click(within(section).getByRole('button', { name: 'Copy the lines read' }));
    await waitFor(() => expect(copied).toEqual(['one\ntwo\nthree']));
  });

  it("drops Read's [line cut] marker from the code and from Copy, and says which lines were cut", async () => {
    const copied = stubClipboard();
    const long = 'x'.repeat(2000);
    // read.ts: a line over MAX_LINE_CHARS (2000) is cut and marked ` [line cut]`.
    const lines = ['short [line cut] stays', `${long} [line cut]`, 'end'];
    openCard(endedCard('Read', { path: 'data.txt' }), { result: numbered(1, lines) });
    const section = await screen.findByRole('region', { name: 'Lines read' });
    expect(await within(section).findByText('Line 2 was cut at 2,000 characters.')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Copy the lines read' }));
    await waitFor(() => expect(copied).toEqual([`short [line cut] stays\n${long}\nend`]));
  });

  it('shows a sentence that is not numbered lines as it is (an empty file)', async () => {
    openCard(endedCard('Read', { path: 'empty.txt' }), { result: '"empty.txt" is empty.' });
    const section = await screen.findByRole('region', { name: 'Lines read' });
    expect(await within(section).findByText('"empty.txt" is empty.')).toBeTruthy();
    expect(section.querySelector('.read-gutter')).toBeNull();
  });

  it('a failed read shows its error first, then what it asked for', async () => {
    const error = 'offset 90 is past the end of "a.ts", which has 40 lines.';
    openCard(
      endedCard('Read', { path: 'a.ts', offset: 90 }, { status: 'failed', isError: true, preview: error }),
      {
        result: error,
      },
    );
    const regions = await screen.findAllByRole('region');
    expect(regions.map((region) => region.getAttribute('aria-label'))).toEqual(['Error', 'Attempted']);
    expect(regions[0]!.textContent).toContain('past the end');
    expect(regions[1]!.textContent).toContain('offset');
  });
});

describe('Glob and Grep cards', () => {
  it("lists Grep's matches under their file with line numbers, each path and all of them copyable", async () => {
    const copied = stubClipboard();
    const result = [
      'src/a.ts:3:  main();',
      'src/a.ts:9:export function main() {}',
      'test/b.ts:1:import { main } from "../src/a";',
      '',
      '[Showing the first 500 matches; narrow the pattern, path or glob.]',
    ].join('\n');
    openCard(endedCard('Grep', { pattern: 'main' }), { result });
    const section = await screen.findByRole('region', { name: 'Matches' });
    expect(await within(section).findByText('Matches: 3 · Files: 2')).toBeTruthy();
    const entries = [...section.querySelectorAll('.file-list-entry')].map((entry) => ({
      path: entry.querySelector('.file-list-path-text')?.textContent,
      matches: [...entry.querySelectorAll('.file-list-match')].map((match) => [
        match.querySelector('.file-list-line')?.textContent,
        match.querySelector('.file-list-text')?.textContent,
      ]),
    }));
    expect(entries).toEqual([
      {
        path: 'src/a.ts',
        matches: [
          ['3', '  main();'],
          ['9', 'export function main() {}'],
        ],
      },
      { path: 'test/b.ts', matches: [['1', 'import { main } from "../src/a";']] },
    ]);
    expect(within(section).getByText(/^Only the first 500 matches are listed/).className).toBe(
      'tool-card-note',
    );

    fireEvent.click(within(section).getByRole('button', { name: 'Copy path test/b.ts' }));
    await waitFor(() => expect(copied).toEqual(['test/b.ts']));
    expect(await within(section).findByRole('button', { name: 'Copied' })).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Copy all paths' }));
    await waitFor(() => expect(copied).toEqual(['test/b.ts', 'src/a.ts\ntest/b.ts']));
  });

  it('splits a match at the path Grep names, when the path holds :<digits>:', async () => {
    const result = 'logs/2024-01-01T10:30:00.log:5:boom\nlogs/2024-01-01T10:30:00.log:9:a:1:b\nsrc/a.ts:1:x';
    const files = [
      { path: 'logs/2024-01-01T10:30:00.log', count: 2 },
      { path: 'src/a.ts', count: 1 },
    ];
    openCard(endedCard('Grep', { pattern: 'boom' }, { meta: { files } }), { result });
    const section = await screen.findByRole('region', { name: 'Matches' });
    expect(await within(section).findByText('Matches: 3 · Files: 2')).toBeTruthy();
    expect([...section.querySelectorAll('.file-list-path-text')].map((p) => p.textContent)).toEqual([
      'logs/2024-01-01T10:30:00.log',
      'src/a.ts',
    ]);
    // An older call (no meta) still splits at the shortest path.
    expect(parseListResult('Grep', 'a.ts:3:x:4:y')).toMatchObject({
      entries: [{ path: 'a.ts', matches: [{ line: 3, text: 'x:4:y' }] }],
    });
  });

  it("lists Glob's paths, and says plainly when nothing matched", async () => {
    openCard(endedCard('Glob', { pattern: '**/*.md' }), { result: 'README.md\ndocs/guide.md' });
    const section = await screen.findByRole('region', { name: 'Files' });
    expect(await within(section).findByText('Files: 2')).toBeTruthy();
    expect([...section.querySelectorAll('.file-list-path-text')].map((p) => p.textContent)).toEqual([
      'README.md',
      'docs/guide.md',
    ]);
    expect(within(section).getByRole('button', { name: 'Copy path docs/guide.md' })).toBeTruthy();
    cleanup();

    openCard(endedCard('Grep', { pattern: 'nope' }), { result: 'No matches for /nope/ in the project.' });
    const none = await screen.findByRole('region', { name: 'Matches' });
    const note = await within(none).findByText('No matches for /nope/ in the project.');
    expect(note.className).toBe('tool-card-note');
    expect(none.querySelector('.file-list')).toBeNull();
  });

  it('with no whole result stored, shows the preview as text and says it is only the preview', async () => {
    const paths = Array.from({ length: 1000 }, (_, i) => `src/file-${i}.ts`).join('\n');
    const preview = paths.slice(0, 2000);
    openCard(endedCard('Glob', { pattern: '**/*.ts' }, { preview }), { result: null });
    const section = await screen.findByRole('region', { name: 'Files' });
    const note = await within(section).findByRole('note');
    expect(note.textContent).toBe('The full result was not stored; this is its preview (2,000 characters).');
    expect(within(section).queryByText(/^Files: /)).toBeNull();
    expect(section.querySelector('.tool-card-pre')?.textContent).toContain('src/file-0.ts');
  });

  it('a failed Grep shows its error first', async () => {
    const error = '"missing" does not exist.';
    openCard(
      endedCard(
        'Grep',
        { pattern: 'x', path: 'missing' },
        { status: 'failed', isError: true, preview: error },
      ),
      {
        result: error,
      },
    );
    const regions = await screen.findAllByRole('region');
    expect(regions.map((region) => region.getAttribute('aria-label'))).toEqual(['Error', 'Attempted']);
  });

  it("says the tools' notes and 'nothing found' in Chinese too", async () => {
    const result = 'a.ts\nb.ts\n\n[Showing the 2 newest of 1234 files; use a narrower pattern or path.]';
    openCard(endedCard('Glob', { pattern: '*.ts' }), { result }, 'zh-CN');
    const section = await screen.findByRole('region', { name: '文件' });
    expect(await within(section).findByText('只列出了 1,234 个文件中最新的 2 个。')).toBeTruthy();
    cleanup();
    openCard(endedCard('Grep', { pattern: 'nope' }), { result: 'No matches for /nope/ in src.' }, 'zh-CN');
    const none = await screen.findByRole('region', { name: '匹配' });
    expect(await within(none).findByText('在 src 中没有匹配 /nope/ 的内容。')).toBeTruthy();
    cleanup();
    // A note the card does not know stays as the tool wrote it.
    openCard(endedCard('Glob', { pattern: '*' }), { result: 'a\n\n[Something new.]' }, 'zh-CN');
    expect(await screen.findByText('[Something new.]')).toBeTruthy();
  });

  it('shows Chinese labels', async () => {
    openCard(endedCard('Glob', { pattern: '*.ts' }), { result: 'a.ts' }, 'zh-CN');
    const section = await screen.findByRole('region', { name: '文件' });
    expect(await within(section).findByText('文件：1')).toBeTruthy();
    expect(within(section).getByRole('button', { name: '复制全部路径' })).toBeTruthy();
  });
});
