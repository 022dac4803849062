// Markdown to an HTML tree (hast), parsed with GFM once per text: micromark with the GFM extension, then
// mdast-util-to-hast. What react-markdown did, without a processor made per render and without the
// half of unified a viewer never runs.
import type { Root } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';

// Made once: they hold no state of a parse.
const SYNTAX = [gfm()];
const FROM_MARKDOWN = [gfmFromMarkdown()];

function asRoot(tree: ReturnType<typeof toHast>): Root {
  return tree.type === 'root' ? tree : { type: 'root', children: [tree as Root['children'][number]] };
}

/** Model Markdown (GFM) as a tree. Raw HTML in it is kept as `raw` nodes, which are shown as text. */
export function markdownTree(markdown: string): Root {
  const mdast = fromMarkdown(markdown, { extensions: SYNTAX, mdastExtensions: FROM_MARKDOWN });
  return asRoot(toHast(mdast, { allowDangerousHtml: true }));
}

/** `code` as one code block, as it is: nothing in it is parsed, so no fence in the text can end it early. */
export function codeTree(code: string, language: string | null): Root {
  const mdast: MdastRoot = {
    type: 'root',
    children: [{ type: 'code', lang: language, meta: null, value: code }],
  };
  return asRoot(toHast(mdast));
}
