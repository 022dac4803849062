import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether the scroll box inside `container` (its `pre`) holds more than it shows below its bottom edge.
 * Checked on every scroll and resize, and again when `content` changes (the box may be a new element).
 */
export function useMoreBelow(container: RefObject<HTMLElement | null>, content: unknown): boolean {
  const [more, setMore] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new content may come in a new box element
  useEffect(() => {
    const box = container.current?.querySelector('pre');
    if (!box) return;
    // A pixel of slack: zoomed layouts leave fractions that are no content at all.
    const check = () => setMore(box.scrollHeight - box.scrollTop - box.clientHeight > 1);
    check();
    box.addEventListener('scroll', check, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    resize?.observe(box);
    // The box keeps its capped height while its content reflows (a narrower window wraps more lines).
    if (box.firstElementChild) resize?.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', check);
      resize?.disconnect();
    };
  }, [container, content]);
  return more;
}
