import type { ElementContent as HastChild } from 'hast';
import { type ComponentProps, memo, useMemo } from 'react';
import { highlightTree, useGrammarsReady } from './highlight/highlighter';
import { countInvisible, splitInvisible } from './invisible-chars';
import { CodeBlock, safeLinkUrl } from './MarkdownView';
import { type HastComponents, hastToJsx, type NodeProps } from './markdown/hast-to-jsx';
import { codeTree } from './markdown/markdown-tree';

/** Above this many characters the code is shown without colours: highlighting it would freeze the UI. */
const HIGHLIGHT_MAX_CHARS = 100_000;

/**
 * The conversation's code block, made a scrolling box that the keyboard can reach. Copy takes `code`
 * itself: the block's text has markers where the code has invisible characters.
 */
function codeComponents(code: string): HastComponents {
  return {
    pre: (props: ComponentProps<'pre'> & NodeProps) => <CodeBlock {...props} tabIndex={0} copyText={code} />,
  };
}

/** Each invisible character in the node's text replaced by its marker, a span of its own. */
function markChildren(node: { children: HastChild[] }): void {
  node.children = node.children.flatMap((child): HastChild[] => {
    if (child.type === 'element') markChildren(child);
    if (child.type !== 'text') return [child];
    return splitInvisible(child.value).map((piece) =>
      piece.kind === 'text'
        ? { type: 'text', value: piece.text }
        : {
            type: 'element',
            tagName: 'span',
            properties: { className: ['invisible-char'] },
            children: [{ type: 'text', value: piece.label }],
          },
    );
  });
}

/**
 * Text shown whole as a highlighted code block, in the look of the conversation's code blocks (language
 * label, Copy). The code scrolls inside its box and is reachable by keyboard. Invisible characters show
 * as markers; Copy still copies the code as it is.
 */
export const CodeView = memo(function CodeView({
  code,
  language,
}: {
  code: string;
  language: string | null;
}) {
  const highlighted = code.length > HIGHLIGHT_MAX_CHARS ? null : language;
  const coloured = useGrammarsReady([highlighted]);
  // One component per text: when the colours arrive, the same elements are updated, not made anew.
  const components = useMemo(() => codeComponents(code), [code]);
  // Made again when the grammar arrives, coloured this time. Invisible characters are marked after the
  // colouring, so a marker is never coloured as part of a token.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `coloured` says the highlighter can colour now
  const rendered = useMemo(() => {
    const tree = codeTree(code, highlighted);
    highlightTree(tree);
    if (countInvisible(code) > 0) markChildren(tree as { children: HastChild[] });
    return hastToJsx(tree, components, safeLinkUrl);
  }, [code, highlighted, coloured, components]);
  return <div className="code-view">{rendered}</div>;
});
