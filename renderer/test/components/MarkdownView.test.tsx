// @vitest-environment happy-dom
import '../support/zh-CN';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadGrammar } from '../../src/components/highlight/highlighter';
import { MarkdownView } from '../../src/components/MarkdownView';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeBridge, LOCAL_INFO } from '../support/fake-bridge';

function renderIn(node: ReactNode, locale: Locale = 'en') {
  return render(<I18nProvider locale={locale}>{node}</I18nProvider>);
}

function stubClipboard() {
  const writeText = vi.fn((_text: string) => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

afterEach(() => {
  cleanup();
  delete window.cairn;
  vi.useRealTimers();
});

describe('MarkdownView', () => {
  it('renders a GFM table', () => {
    const { container } = renderIn(
      <MarkdownView text={'| Name | Size |\n| --- | ---: |\n| a.ts | 12 |\n| b.ts | 7 |'} />,
    );
    const table = container.querySelector('table');
    expect(table).not.toBeNull();
    expect([...table!.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Name', 'Size']);
    expect(table!.querySelectorAll('tbody tr')).toHaveLength(2);
    // Column alignment as the cell's style, and no stray whitespace text inside the table's rows.
    expect((table!.querySelectorAll('td')[1] as HTMLElement).style.textAlign).toBe('right');
    expect([...table!.querySelectorAll('tr')].every((tr) => tr.childNodes.length === 2)).toBe(true);
  });

  it('renders the rest of GFM: strikethrough, task lists, footnotes, autolinks, references', () => {
    const { container } = renderIn(
      <MarkdownView
        text={
          '~~old~~ and www.example.com and [ref][r] and a note[^1].\n\n- [x] done\n- [ ] todo\n\n' +
          '[r]: https://ref.example\n\n[^1]: The note.'
        }
      />,
    );
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.querySelector('a[href="http://www.example.com"]')?.textContent).toBe('www.example.com');
    expect(container.querySelector('a[href="https://ref.example"]')?.textContent).toBe('ref');
    const boxes = [...container.querySelectorAll('input[type="checkbox"]')] as HTMLInputElement[];
    expect(boxes.map((box) => [box.checked, box.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
    // The footnotes section, its attributes spelled for the DOM (data-footnotes, the heading's id).
    expect(container.querySelector('sup')?.textContent).toBe('1');
    expect(container.querySelector('section[data-footnotes="true"] h2#footnote-label')).not.toBeNull();
    expect(container.querySelector('section[data-footnotes] li')?.textContent).toContain('The note.');
  });

  it('shows a code block plain until its grammar loads, then coloured, the same text in the same box', async () => {
    const { container } = renderIn(<MarkdownView text={'```rs\nfn main() { let x = 1; }\n```'} />);
    const code = container.querySelector('pre code');
    expect(code?.classList.contains('language-rs')).toBe(true);
    expect(code?.classList.contains('hljs')).toBe(true);
    expect(code?.querySelector('.hljs-keyword')).toBeNull();
    expect(code?.textContent).toBe('fn main() { let x = 1; }\n');
    await vi.waitFor(() => expect(container.querySelector('pre code .hljs-keyword')?.textContent).toBe('fn'));
    expect(container.querySelector('pre code')?.textContent).toBe('fn main() { let x = 1; }\n');
    expect(container.querySelector('.md-code-lang')?.textContent).toBe('rs');
  });

  it('colours a code block at once when its grammar has loaded already', async () => {
    await loadGrammar('typescript');
    const { container } = renderIn(<MarkdownView text={'```ts\nconst answer: number = 42;\n```'} />);
    const code = container.querySelector('pre code');
    expect(code?.classList.contains('hljs')).toBe(true);
    expect(code?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('.md-code-lang')?.textContent).toBe('ts');
  });

  it('copies the code with the Copy button and says so briefly', async () => {
    vi.useFakeTimers();
    const writeText = stubClipboard();
    renderIn(<MarkdownView text={'```bash\nnpm test\necho done\n```'} />);
    const button = screen.getByRole('button', { name: 'Copy code' });
    expect(button.textContent).toBe('Copy');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('npm test\necho done');
    expect(screen.getByRole('button', { name: 'Copied' }).textContent).toBe('Copied');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });

  it('shows a code block without a language as text', () => {
    const { container } = renderIn(<MarkdownView text={'```\nplain words\n```'} />);
    expect(container.querySelector('.md-code-lang')?.textContent).toBe('text');
    expect(container.querySelector('pre code')?.textContent).toBe('plain words\n');
  });

  it('shows raw HTML as text, never as elements', () => {
    const text = [
      '<script>window.hacked = true</script>',
      '',
      'Inline <img src="x" onerror="window.hacked = true"> and <iframe src="https://evil.example"></iframe>',
    ].join('\n');
    const { container } = renderIn(<MarkdownView text={text} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.textContent).toContain('<script>window.hacked = true</script>');
    expect(container.textContent).toContain('<img src="x" onerror="window.hacked = true">');
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('does not render javascript: or relative URLs as links', () => {
    const { container } = renderIn(
      <MarkdownView
        text={
          '[click me](javascript:alert(1)) <javascript:alert(2)> [rel](./file.md) [data](data:text/html,hi)'
        }
      />,
    );
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('click me');
    expect(container.textContent).toContain('rel');
  });

  it('opens http links in a new window without opener', () => {
    const { container } = renderIn(
      <MarkdownView text={'See [the docs](https://example.com/docs) or mail <a@b.example>.'} />,
    );
    const links = container.querySelectorAll('a');
    // mailto: is not a link: the desktop bridge opens only http(s).
    expect(links).toHaveLength(1);
    const docs = screen.getByRole('link', { name: 'the docs' });
    expect(docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.textContent).toContain('a@b.example');
  });

  it('hands link clicks to the Electron bridge when there is one', () => {
    const { bridge } = fakeBridge(LOCAL_INFO);
    const openExternal = bridge.openExternal;
    window.cairn = bridge;
    renderIn(<MarkdownView text={'[site](https://example.com/)'} />);
    const notPrevented = fireEvent.click(screen.getByRole('link', { name: 'site' }));
    expect(notPrevented).toBe(false);
    expect(openExternal).toHaveBeenCalledWith('https://example.com/');
  });

  it('does not load remote images', () => {
    const { container } = renderIn(
      <MarkdownView text={'![a diagram](https://example.com/d.png) ![](http://t.example/p.gif)'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Image: a diagram' }).getAttribute('href')).toBe(
      'https://example.com/d.png',
    );
    expect(container.textContent).toContain('Image');
  });

  it('re-renders while streaming and marks itself busy', () => {
    const { container, rerender } = renderIn(<MarkdownView text={'Hello'} streaming />);
    expect(container.querySelector('.md')?.getAttribute('aria-busy')).toBe('true');
    rerender(
      <I18nProvider locale="en">
        <MarkdownView text={'Hello **world**'} streaming />
      </I18nProvider>,
    );
    expect(container.querySelector('strong')?.textContent).toBe('world');
    rerender(
      <I18nProvider locale="en">
        <MarkdownView text={'Hello **world**'} />
      </I18nProvider>,
    );
    expect(container.querySelector('.md')?.hasAttribute('aria-busy')).toBe(false);
  });

  it('speaks Chinese', () => {
    renderIn(<MarkdownView text={'```js\nlet a = 1;\n```'} />, 'zh-CN');
    expect(screen.getByRole('button', { name: '复制代码' }).textContent).toBe('复制');
  });
});
