import type { Element as HastElement } from 'hast';
import { type ComponentProps, type MouseEvent, memo, type ReactNode, useCallback, useMemo } from 'react';
import { useT } from '../i18n/i18n';
import { CopyButton } from './CopyButton';
import { fenceLanguages, highlightTree, useGrammarsReady } from './highlight/highlighter';
import { type HastComponents, hastText, hastToJsx, type NodeProps } from './markdown/hast-to-jsx';
import { markdownTree } from './markdown/markdown-tree';

// The desktop bridge opens only http(s) links, so nothing else is made a link anywhere.
const LINK_PROTOCOLS = new Set(['http:', 'https:']);

/** The URL when it is absolute http or https; anything else (javascript:, relative, data:) is null. */
export function safeLinkUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return LINK_PROTOCOLS.has(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

/** Opens a link: through the Electron bridge when there is one, else as a new browser tab. */
export function ExternalLink({
  href,
  title,
  children,
}: {
  href: string;
  title?: string;
  children: ReactNode;
}) {
  const onClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      const bridge = window.cairn;
      if (!bridge?.openExternal) return;
      event.preventDefault();
      bridge.openExternal(href).catch(() => undefined);
    },
    [href],
  );
  return (
    <a href={href} title={title ?? href} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      {children}
    </a>
  );
}

function MarkdownLink({ href, title, children }: ComponentProps<'a'> & NodeProps) {
  const safe = safeLinkUrl(href);
  if (!safe) return <span className="md-link-plain">{children}</span>;
  return (
    <ExternalLink href={safe} title={title}>
      {children}
    </ExternalLink>
  );
}

/** Remote images are never loaded: the alt text stands in, linked to the image when the URL is safe. */
function MarkdownImage({ src, alt }: ComponentProps<'img'> & NodeProps) {
  const t = useT();
  const label = alt ? t('conversation.image', { alt }) : t('conversation.imageNoAlt');
  const safe = typeof src === 'string' ? safeLinkUrl(src) : null;
  return (
    <span className="md-image" title={t('conversation.imageBlocked')}>
      <span className="md-image-icon" aria-hidden="true">
        ▨
      </span>
      {safe ? <ExternalLink href={safe}>{label}</ExternalLink> : label}
    </span>
  );
}

function codeLanguage(code: HastElement): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-')) return name.slice('language-'.length);
  }
  return null;
}

/**
 * A fenced code block: language label and a Copy button above the (highlighted) code. A caller that makes
 * the code a scrolling box passes `tabIndex`, so it can be scrolled by keyboard; one that shows the code
 * otherwise than it is passes `copyText`, what Copy puts on the clipboard.
 */
export function CodeBlock({
  node,
  children,
  className,
  tabIndex,
  copyText,
}: ComponentProps<'pre'> & NodeProps & { copyText?: string }) {
  const t = useT();
  const code = node?.children.find(
    (child): child is HastElement => child.type === 'element' && child.tagName === 'code',
  );
  const language = code ? codeLanguage(code) : null;
  const text = copyText ?? (code ? hastText(code).replace(/\n$/, '') : '');
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{language ?? t('conversation.code.plain')}</span>
        <CopyButton text={text} label={t('conversation.code.copyLabel')} className="md-code-copy" />
      </div>
      <pre className={className} tabIndex={tabIndex}>
        {children}
      </pre>
    </div>
  );
}

function Table({ node: _node, ...rest }: ComponentProps<'table'> & NodeProps) {
  return (
    <div className="md-table-wrap">
      <table {...rest} />
    </div>
  );
}

const components: HastComponents = { a: MarkdownLink, img: MarkdownImage, pre: CodeBlock, table: Table };

/** Finished messages rendered lately, newest last: a turn scrolled out of view and back is not parsed again. */
const RENDERED_MAX = 500;
const renderedCache = new Map<string, ReactNode>();

/**
 * Markdown's output for `text`: a tree of elements, kept and shown again (components in it, a code
 * block's Copy, still get their own state wherever it is mounted). Code blocks are coloured when their
 * grammars have loaded (`coloured`); every URL is checked, and one we would not follow is left out.
 */
function renderMarkdown(text: string, coloured: boolean, keep: boolean): ReactNode {
  const key = `${coloured ? 1 : 0}${text}`;
  const kept = renderedCache.get(key);
  if (kept !== undefined) {
    renderedCache.delete(key);
    renderedCache.set(key, kept);
    return kept;
  }
  const tree = markdownTree(text);
  highlightTree(tree);
  const rendered = hastToJsx(tree, components, safeLinkUrl);
  if (keep) {
    renderedCache.set(key, rendered);
    if (renderedCache.size > RENDERED_MAX) renderedCache.delete(renderedCache.keys().next().value!);
  }
  return rendered;
}

/**
 * Model Markdown (GFM), rendered without raw HTML: tags in the text show as text. A finished message is
 * parsed once (and once more when the grammars of its code blocks arrive), and kept: mounted again, it is
 * not parsed again. While it streams it is parsed again on each change of `text`.
 */
export const MarkdownView = memo(function MarkdownView({
  text,
  streaming,
}: {
  text: string;
  streaming?: boolean;
}) {
  const coloured = useGrammarsReady(fenceLanguages(text));
  const rendered = useMemo(() => renderMarkdown(text, coloured, !streaming), [text, coloured, streaming]);
  return (
    <div className={streaming ? 'md md--streaming' : 'md'} aria-busy={streaming ? true : undefined}>
      {rendered}
    </div>
  );
});
