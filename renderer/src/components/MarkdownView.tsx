import { type ComponentProps, type MouseEvent, memo, type ReactNode, useCallback, useMemo } from 'react';
import Markdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import { useT } from '../i18n/i18n';
import { fenceLanguages, rehypeLazyHighlight, useGrammarsReady } from './highlight/highlighter';
import { remarkGfmParse } from './markdown/remark-gfm-parse';
import { useCopy } from './use-copy';

type HastElement = NonNullable<ExtraProps['node']>;
type HastChild = HastElement['children'][number];
type PluggableList = NonNullable<Options['rehypePlugins']>;

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

/** Drops every URL attribute we would not follow, so nothing unsafe reaches the DOM. */
const urlTransform: UrlTransform = (url) => safeLinkUrl(url) ?? undefined;

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

function MarkdownLink({ href, title, children }: ComponentProps<'a'> & ExtraProps) {
  const safe = safeLinkUrl(href);
  if (!safe) return <span className="md-link-plain">{children}</span>;
  return (
    <ExternalLink href={safe} title={title}>
      {children}
    </ExternalLink>
  );
}

/** Remote images are never loaded: the alt text stands in, linked to the image when the URL is safe. */
function MarkdownImage({ src, alt }: ComponentProps<'img'> & ExtraProps) {
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

function hastText(node: HastChild | HastElement): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(hastText).join('');
  return '';
}

function codeLanguage(code: HastElement): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-')) return name.slice('language-'.length);
  }
  return null;
}

function CopyButton({ text }: { text: string }) {
  const t = useT();
  const { state, copy } = useCopy(text);
  const label =
    state === 'copied'
      ? t('conversation.code.copied')
      : state === 'failed'
        ? t('conversation.code.copyFailed')
        : t('conversation.code.copy');
  return (
    <button
      type="button"
      className="md-code-copy"
      data-state={state}
      aria-label={state === 'idle' ? t('conversation.code.copyLabel') : label}
      onClick={copy}
    >
      {label}
    </button>
  );
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
}: ComponentProps<'pre'> & ExtraProps & { copyText?: string }) {
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
        <CopyButton text={text} />
      </div>
      <pre className={className} tabIndex={tabIndex}>
        {children}
      </pre>
    </div>
  );
}

function Table({ node: _node, ...rest }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="md-table-wrap">
      <table {...rest} />
    </div>
  );
}

const components: Components = { a: MarkdownLink, img: MarkdownImage, pre: CodeBlock, table: Table };
const remarkPlugins: PluggableList = [remarkGfmParse];
/** Colours code blocks whose grammar has loaded; a caller renders again when `useGrammarsReady` turns true. */
export const MARKDOWN_REHYPE_PLUGINS: PluggableList = [rehypeLazyHighlight];

/** Finished messages rendered lately, newest last: a turn scrolled out of view and back is not parsed again. */
const RENDERED_MAX = 500;
const renderedCache = new Map<string, ReactNode>();

/**
 * Markdown's output for `text`. react-markdown's `Markdown` is a plain function of its options (no hooks),
 * so its result, a tree of elements, can be kept and shown again; components in it (a code block's Copy)
 * still get their own state wherever the tree is mounted.
 */
function renderMarkdown(text: string, coloured: boolean, keep: boolean): ReactNode {
  const key = `${coloured ? 1 : 0}${text}`;
  const kept = renderedCache.get(key);
  if (kept !== undefined) {
    renderedCache.delete(key);
    renderedCache.set(key, kept);
    return kept;
  }
  const rendered = Markdown({
    remarkPlugins,
    rehypePlugins: MARKDOWN_REHYPE_PLUGINS,
    components,
    urlTransform,
    children: text,
  });
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
