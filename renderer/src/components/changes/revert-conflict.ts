import { ApiError } from '../../../../sidecar/src/client';

/**
 * The files a revert refused to overwrite (409 `conflict` with `details.paths`), or null for any other
 * failure (a fork's revert is a `conflict` too, without paths: its message says what to do).
 */
export function conflictPaths(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return null;
  const paths = error.details?.paths;
  if (!Array.isArray(paths) || !paths.every((p): p is string => typeof p === 'string')) return null;
  return paths;
}
