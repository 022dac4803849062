import { type ComponentProps, memo, useMemo } from 'react';
import Markdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import { CodeBlock, MARKDOWN_REHYPE_PLUGINS } from './MarkdownView';

type PluggableList = NonNullable<Options['remarkPlugins']>;

/** Above this many characters the code is shown without colours: highlighting it would freeze the UI. */
const HIGHLIGHT_MAX_CHARS = 100_000;

/** The conversation's code block, made a scrolling box that the keyboard can reach. */
const components: Components = {
  pre: (props: ComponentProps<'pre'> & ExtraProps) => <CodeBlock {...props} tabIndex={0} />,
};

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
 * label, Copy). The code scrolls inside its box and is reachable by keyboard.
 */
export const CodeView = memo(function CodeView({
  code,
  language,
}: {
  code: string;
  language: string | null;
}) {
  const remarkPlugins = useMemo(
    () => codeTree(code, code.length > HIGHLIGHT_MAX_CHARS ? null : language),
    [code, language],
  );
  return (
    <div className="code-view">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={MARKDOWN_REHYPE_PLUGINS} components={components}>
        {''}
      </Markdown>
    </div>
  );
});
