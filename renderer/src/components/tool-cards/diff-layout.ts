import { useSyncExternalStore } from 'react';

/** How a card shows a change: one column of -/+ lines, or the old and new text side by side. */
export type DiffLayout = 'unified' | 'split';

const STORAGE_KEY = 'cairn.diffLayout';

let current: DiffLayout | null = null;
const listeners = new Set<() => void>();

function stored(): DiffLayout {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    // Storage refused (a privacy setting): the default serves.
    return 'unified';
  }
}

function snapshot(): DiffLayout {
  current ??= stored();
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Chooses the layout for every diff card open now and later, and remembers it for the next start. */
export function setDiffLayout(layout: DiffLayout): void {
  current = layout;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, layout);
  } catch {
    // Not remembered past this run; the choice still holds now.
  }
  for (const listener of listeners) listener();
}

/** The layout the user chose last (unified until they choose), shared by all diff cards. */
export function useDiffLayout(): DiffLayout {
  return useSyncExternalStore(subscribe, snapshot, () => 'unified');
}
