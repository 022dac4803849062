import { type ComponentProps, memo, useMemo } from 'react';
import Markdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import { useGrammarsReady } from './highlight/highlighter';
import { countInvisible, splitInvisible } from './invisible-chars';
import { CodeBlock, MARKDOWN_REHYPE_PLUGINS } from './MarkdownView';

type PluggableList = NonNullable<Options['remarkPlugins']>;
type HastElement = NonNullable<ExtraProps['node']>;
type HastChild = HastElement['children'][number];

/** Above this many characters the code is shown without colours: highlighting it would freeze the UI. */
const HIGHLIGHT_MAX_CHARS = 100_000;

/**
 * The conversation's code block, made a scrolling box that the keyboard can reach. Copy takes `code`
 * itself: the block's text has markers where the code has invisible characters.
 */
function codeComponents(code: string): Components {
  return {
    pre: (props: ComponentProps<'pre'> & ExtraProps) => <CodeBlock {...props} tabIndex={0} copyText={code} />,
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

/** A rehype plugin run after highlighting, so a marker is never coloured as part of a token. */
const markInvisible = () => (tree: { children: HastChild[] }) => markChildren(tree);

/**
 * A remark plugin that puts `code` in the tree as one code block, as it is: nothing is parsed as Markdown,
 * so no fence or character in the text can end the block early or change what is shown.
 */
function codeTree(code: string, language: string | null): PluggableList {
  const tree = { type: 'root', children: [{ type: 'code', lang: language, meta: null, value: code }] };
  return [() => () => tree];
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
  // A new tree when the grammar arrives, so the code is parsed again, coloured this time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `coloured` is read by the highlight plugin
  const remarkPlugins = useMemo(() => codeTree(code, highlighted), [code, highlighted, coloured]);
  const rehypePlugins = useMemo(
    () => (countInvisible(code) > 0 ? [...MARKDOWN_REHYPE_PLUGINS, markInvisible] : MARKDOWN_REHYPE_PLUGINS),
    [code],
  );
  const components = useMemo(() => codeComponents(code), [code]);
  return (
    <div className="code-view">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {''}
      </Markdown>
    </div>
  );
});
