/**
 * A ref callback that focuses its element when it mounts: for fields that appear because the user asked
 * for them (a dialog opened to type into, a rename). The `autoFocus` attribute would not do: a browser
 * honours `autofocus` only while a document loads, and Preact (the renderer's React) leaves it to the browser.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
