// remark-gfm without its Markdown writer: it registers GFM for parsing and for writing Markdown back out,
// and the writer (mdast-util-to-markdown and the GFM table writer) is code a viewer never runs. Same
// parser, same tree; only the half we use is bundled.
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
// Its types add the parser's extension lists to unified's Data.
import type {} from 'remark-parse';
import type { Processor } from 'unified';

// Made once: react-markdown makes a processor per render, and these hold no state of a parse.
const SYNTAX = gfm();
const FROM_MARKDOWN = gfmFromMarkdown();

export function remarkGfmParse(this: Processor): void {
  const data = this.data();
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), SYNTAX];
  data.fromMarkdownExtensions = [...(data.fromMarkdownExtensions ?? []), FROM_MARKDOWN];
}
