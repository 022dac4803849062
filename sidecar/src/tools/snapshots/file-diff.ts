import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { FileChange } from '../../protocol';
import type { ObjectStore } from './object-store';
import type { FileEntry, PathChange } from './snapshot-tree';

/** Texts longer than this (either side) are not diffed: the diff would be slow and unreadable. */
const MAX_DIFF_BYTES = 1024 * 1024;
/** A diff that takes longer than this is given up (it runs on the event loop). */
const DIFF_TIMEOUT_MS = 250;
/** git's test for binary content: a NUL byte in the first 8,000 bytes. */
const SNIFF_BYTES = 8000;

function isBinary(bytes: Buffer): boolean {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** A link's "content" in a diff is its target, as git shows it. */
async function contentOf(objects: ObjectStore, entry: FileEntry | null): Promise<Buffer | null> {
  if (!entry || entry.kind === 'large') return null;
  return objects.get(entry.id);
}

/** One changed path as the API shows it: status, unified diff (`a/` and `b/` names, git style) and counts. */
export async function fileChange(
  objects: ObjectStore,
  change: PathChange,
  withDiff = true,
): Promise<FileChange> {
  const { path: rel, before, after } = change;
  const status = !before ? 'added' : !after ? 'deleted' : 'modified';
  const base = {
    path: rel,
    status,
    diff: null,
    binary: false,
    too_large: false,
    additions: 0,
    deletions: 0,
  } as const;
  if (before?.kind === 'large' || after?.kind === 'large') return { ...base, too_large: true };
  const [old, next] = await Promise.all([contentOf(objects, before), contentOf(objects, after)]);
  if ((old && isBinary(old)) || (next && isBinary(next))) return { ...base, binary: true };
  if ((old?.length ?? 0) > MAX_DIFF_BYTES || (next?.length ?? 0) > MAX_DIFF_BYTES)
    return { ...base, too_large: true };
  const patch = structuredPatch(
    before ? `a/${rel}` : '/dev/null',
    after ? `b/${rel}` : '/dev/null',
    old?.toString('utf8') ?? '',
    next?.toString('utf8') ?? '',
    undefined,
    undefined,
    { context: 3, timeout: DIFF_TIMEOUT_MS },
  );
  // Gave up (a huge rewrite): too large to show rather than slow.
  if (!patch) return { ...base, too_large: true };
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  }
  return { ...base, diff: formatPatch(patch, FILE_HEADERS_ONLY), additions, deletions };
}
