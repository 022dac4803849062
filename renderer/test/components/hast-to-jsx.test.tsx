// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { hastToJsx } from '../../src/components/markdown/hast-to-jsx';
import { markdownTree } from '../../src/components/markdown/markdown-tree';

afterEach(() => cleanup());

const httpOnly = (url: string) => (/^https?:\/\//.test(url) ? url : null);

it('spells hast properties as DOM attributes, and keeps only the URLs the check allows', () => {
  const tree = markdownTree(
    'a note[^1], [safe](https://a.example) [unsafe](javascript:alert(1)) <i>raw</i>\n\n[^1]: n',
  );
  const { container } = render(<>{hastToJsx(tree, {}, httpOnly)}</>);
  const ref = container.querySelector('sup a');
  expect(ref?.getAttribute('data-footnote-ref')).toBe('true');
  expect(ref?.getAttribute('aria-describedby')).toBe('footnote-label');
  // A fragment link is not http(s): left without its href, as an unsafe link is.
  expect(ref?.hasAttribute('href')).toBe(false);
  const link = (text: string) => [...container.querySelectorAll('a')].find((a) => a.textContent === text);
  expect(link('safe')?.getAttribute('href')).toBe('https://a.example');
  expect(link('unsafe')?.hasAttribute('href')).toBe(false);
  // Raw HTML is its text, not an element.
  expect(container.querySelector('i')).toBeNull();
  expect(container.textContent).toContain('<i>raw</i>');
});

const seen: string[] = [];
function Pre(props: { node?: { tagName: string }; children?: unknown }) {
  seen.push(props.node?.tagName ?? 'none');
  return <pre data-mine="yes">{props.children as never}</pre>;
}

it('gives a component its element as `node`, with the element’s props', () => {
  const { container } = render(<>{hastToJsx(markdownTree('```js\nx\n```'), { pre: Pre }, httpOnly)}</>);
  expect(seen).toEqual(['pre']);
  expect(container.querySelector('pre[data-mine] code.language-js')?.textContent).toBe('x\n');
});
