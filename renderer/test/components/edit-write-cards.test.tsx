// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setDiffLayout } from '../../src/components/tool-cards/diff-layout';
import { endedCard, openCard } from '../support/file-cards';
import '../support/lazy-bodies';

afterEach(() => {
  cleanup();
  setDiffLayout('unified');
  localStorage.clear();
});

const EDIT = { path: 'src/app.ts', old_string: 'const a = 1;\nkeep();', new_string: 'const a = 2;\nkeep();' };

/** The lines of the unified diff, each as its sign and text. */
function unifiedLines(): string[] {
  return [...document.querySelectorAll('.diff-view .diff-line')].map((line) => line.textContent ?? '');
}

describe('Edit card', () => {
  it('shows the change as a unified diff, then side by side once chosen, and remembers the choice', async () => {
    openCard(endedCard('Edit', EDIT), { result: 'Replaced 1 occurrence in src/app.ts (line 3).' });
    const change = await screen.findByRole('region', { name: 'Change' });
    expect(within(change).getByText('src/app.ts')).toBeTruthy();
    expect(unifiedLines()).toEqual(['-const a = 1;\n', '+const a = 2;\n', ' keep();\n']);
    expect(change.querySelector('del')?.textContent).toContain('const a = 1;');
    expect(change.querySelector('ins')?.textContent).toContain('const a = 2;');
    expect(await within(change).findByText('Replaced 1 occurrence in src/app.ts (line 3).')).toBeTruthy();

    const split = within(change).getByRole('button', { name: 'Side by side' });
    expect(split.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(split);
    expect(split.getAttribute('aria-pressed')).toBe('true');
    expect(document.querySelector('.diff-view')).toBeNull();
    const rows = [...change.querySelectorAll('.side-diff-table tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['-const a = 1;', '+const a = 2;'],
      [' keep();', ' keep();'],
    ]);
    expect(localStorage.getItem('cairn.diffLayout')).toBe('split');

    fireEvent.click(within(change).getByRole('button', { name: 'Unified' }));
    expect(unifiedLines()).toHaveLength(3);
    expect(localStorage.getItem('cairn.diffLayout')).toBe('unified');
  });

  it('says when it replaced every occurrence', async () => {
    openCard(endedCard('Edit', { ...EDIT, replace_all: true }), { result: 'Replaced 3 occurrences.' });
    const change = await screen.findByRole('region', { name: 'Change' });
    expect(within(change).getByText('Replaces every occurrence')).toBeTruthy();
  });

  it('a failed edit shows its error first, then what it attempted', async () => {
    const error = 'old_string not found in src/app.ts; Read the file again.';
    openCard(endedCard('Edit', EDIT, { status: 'failed', isError: true, preview: error }), { result: error });
    const regions = await screen.findAllByRole('region');
    expect(regions.map((region) => region.getAttribute('aria-label'))).toEqual(['Error', 'Attempted']);
    expect(regions[0]!.textContent).toContain('old_string not found');
    expect(regions[1]!.querySelectorAll('.diff-line')).toHaveLength(3);
  });
});

describe('Write card', () => {
  it('shows a created file highlighted by the language of its path', async () => {
    const content = 'def main():\n    return 1\n';
    const { requests } = openCard(endedCard('Write', { path: 'tool.py', content }), {
      result: 'Created tool.py: 25 bytes, 2 lines.',
    });
    const file = await screen.findByRole('region', { name: 'New file' });
    const code = await waitFor(() => {
      const found = file.querySelector('code.language-python');
      if (!found) throw new Error('no highlighted code yet');
      return found;
    });
    await waitFor(() => expect(code.querySelector('.hljs-keyword')?.textContent).toBe('def'));
    expect(code.textContent).toBe(content);
    expect(await within(file).findByText('Created tool.py: 25 bytes, 2 lines.')).toBeTruthy();
    expect(requests.some((url) => url.endsWith('/previous'))).toBe(false);
  });

  it('shows the change as a diff when it replaced a file whose old text was kept', async () => {
    const card = endedCard(
      'Write',
      { path: 'notes.md', content: 'new line\nkept\n' },
      { meta: { replaced: true, previous_saved: true } },
    );
    const { requests } = openCard(card, {
      result: 'Overwrote notes.md: 14 bytes, 2 lines.',
      previous: 'old line\nkept\n',
    });
    const changes = await screen.findByRole('region', { name: 'Changes' });
    await waitFor(() => expect(unifiedLines()).toEqual(['-old line\n', '+new line\n', ' kept\n']));
    expect(within(changes).getByRole('group', { name: 'Diff layout' })).toBeTruthy();
    expect(requests.filter((url) => url.endsWith('/api/tool-calls/tc1/previous'))).toHaveLength(1);
  });

  it('folds the unchanged lines of a whole-file diff until asked for them', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const before = `${lines.join('\n')}\n`;
    const after = before.replace('line 10\n', 'line ten\n');
    const card = endedCard(
      'Write',
      { path: 'long.txt', content: after },
      { meta: { replaced: true, previous_saved: true } },
    );
    openCard(card, { result: 'Overwrote long.txt: 1 line changed.', previous: before });
    const changes = await screen.findByRole('region', { name: 'Changes' });
    await waitFor(() => expect(unifiedLines()[0]).toBe('⋯ 6 unchanged lines\n'));
    expect(unifiedLines()).toHaveLength(10);
    expect(unifiedLines()).toContain('-line 10\n');
    fireEvent.click(within(changes).getByRole('button', { name: 'Side by side' }));
    expect(changes.querySelector('.side-diff-marker')?.textContent).toBe('⋯ 6 unchanged lines');
    fireEvent.click(within(changes).getByRole('button', { name: 'Show unchanged lines' }));
    expect(changes.querySelector('.side-diff-marker')).toBeNull();
    expect(changes.querySelectorAll('.side-diff-table tbody tr')).toHaveLength(20);
  });

  it('shows the new file when the old text was not kept, and says why', async () => {
    const card = endedCard(
      'Write',
      { path: 'data.json', content: '{"a": 1}' },
      { meta: { replaced: true, previous_saved: false } },
    );
    const { requests } = openCard(card, { result: 'Overwrote data.json: 8 bytes, 1 line.' });
    const file = await screen.findByRole('region', { name: 'New file' });
    expect(within(file).getByText(/old text was not kept/)).toBeTruthy();
    await waitFor(() => expect(file.querySelector('code.language-json')).not.toBeNull());
    expect(requests.some((url) => url.endsWith('/previous'))).toBe(false);
  });

  it('a failed write shows its error first, then the content it attempted', async () => {
    const error = '"dir" is a folder, not a file (use Glob to list its files).';
    openCard(
      endedCard('Write', { path: 'dir', content: 'x' }, { status: 'failed', isError: true, preview: error }),
      {
        result: error,
      },
    );
    const regions = await screen.findAllByRole('region');
    expect(regions.map((region) => region.getAttribute('aria-label'))).toEqual(['Error', 'Attempted']);
    expect(regions[0]!.textContent).toContain('is a folder');
  });
});
