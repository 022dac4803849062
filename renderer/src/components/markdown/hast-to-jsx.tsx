import type { Element, ElementContent, Root } from 'hast';
import { type ComponentType, createElement, Fragment, type ReactNode } from 'react';

/** What a component that stands in for an element gets besides its props: the element itself. */
export interface NodeProps {
  node?: Element;
}

/** Components that stand in for some elements (a link, an image, a code block, a table). */
// biome-ignore lint/suspicious/noExplicitAny: each component takes the props of the element it replaces
export type HastComponents = Partial<Record<string, ComponentType<any>>>;

/** The text of a node and everything under it. */
export function hastText(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(hastText).join('');
  return '';
}

/** URL properties, per element: each goes through the caller's check, and is dropped when it fails. */
const URL_PROPERTIES: Record<string, readonly string[]> = { a: ['href'], img: ['src'] };
/** Elements whose whitespace text is not content (React and the DOM refuse text there). */
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** hast properties as DOM props: class names joined, data-/aria- names spelled out, a cell's align as style. */
function propsOf(element: Element, safeUrl: (url: string) => string | null): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  const urls = URL_PROPERTIES[element.tagName] ?? [];
  for (const [name, value] of Object.entries(element.properties)) {
    if (value === null || value === undefined) continue;
    const text = Array.isArray(value) ? value.join(' ') : value;
    if (urls.includes(name)) {
      const safe = safeUrl(String(text));
      if (safe !== null) props[name] = safe;
    } else if (name === 'className') props.className = String(text);
    else if (/^aria[A-Z]/.test(name)) props[`aria-${name.slice(4).toLowerCase()}`] = String(text);
    else if (/^data[A-Z]/.test(name)) props[kebab(name)] = String(text);
    else if (name === 'align' && (element.tagName === 'td' || element.tagName === 'th'))
      props.style = { textAlign: String(text) };
    else props[name] = text;
  }
  return props;
}

function render(
  node: ElementContent | Root,
  key: number,
  components: HastComponents,
  safeUrl: (url: string) => string | null,
  parent: string | null,
): ReactNode {
  switch (node.type) {
    case 'text':
      return parent !== null && TABLE_PARTS.has(parent) && node.value.trim() === '' ? null : node.value;
    case 'root':
      return createElement(
        Fragment,
        null,
        ...node.children.map((child, i) =>
          child.type === 'doctype' ? null : render(child, i, components, safeUrl, null),
        ),
      );
    case 'element': {
      const children = node.children.map((child, i) => render(child, i, components, safeUrl, node.tagName));
      const props = { ...propsOf(node, safeUrl), key };
      const component = components[node.tagName];
      if (component) return createElement(component, { ...props, node }, ...children);
      return createElement(node.tagName, props, ...children);
    }
    default:
      // Raw HTML from the Markdown is shown as the text it is, never parsed; comments are left out.
      return (node as { type: string }).type === 'raw' ? (node as unknown as { value: string }).value : null;
  }
}

/**
 * A hast tree as elements, with `components` standing in for the elements they name (each gets the
 * element as `node`). Every URL property passes through `safeUrl` or is left out.
 */
export function hastToJsx(
  tree: Root,
  components: HastComponents,
  safeUrl: (url: string) => string | null,
): ReactNode {
  return render(tree, 0, components, safeUrl, null);
}
