// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { MAX_MARKDOWN_CHARS } from '../../src/components/tool-cards/McpBody';
import { endedCard, openCard } from '../support/file-cards';
import '../support/lazy-bodies';

afterEach(cleanup);

const NAME = 'mcp__fetch__fetch';

it('shows a small MCP text result as Markdown', async () => {
  openCard(endedCard(NAME, { url: 'https://example.com' }), { result: '# Example\n\nSome **bold** text.' });
  expect(await screen.findByRole('heading', { name: 'Example' })).toBeTruthy();
  expect(screen.queryByText(/shown as plain text/)).toBeNull();
});

it('shows an MCP text result over the limit as plain text, with a note, not parsed as Markdown', async () => {
  const page = '# Section\n\nA paragraph with **bold** words.\n\n';
  const text = page.repeat(Math.ceil((MAX_MARKDOWN_CHARS + 1) / page.length));
  openCard(endedCard(NAME, { url: 'https://example.com' }), { result: text });
  const note = await screen.findByText(/shown as plain text, not as Markdown/);
  expect(note.textContent).toContain(text.length.toLocaleString('en'));
  expect(screen.queryByRole('heading', { name: 'Section' })).toBeNull();
  expect(document.querySelector('.tool-card-pre')?.textContent).toContain('# Section');
});
