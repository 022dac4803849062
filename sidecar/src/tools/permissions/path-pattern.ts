import { globSource } from './glob-source';

/**
 * A rule's path pattern for the file tools: a glob relative to the project, `/`-separated. `*` and `?`
 * stay within one folder name, `**` spans any number of folders (`src/**` is src and all below it).
 * Matched against a path already made relative to the project, so `..` never appears on either side.
 */
export interface PathPattern {
  regex: RegExp;
  /** One regex per `/`-separated part, null for a `**` part: to tell whether a folder may hold matches. */
  segments: (RegExp | null)[];
}

/** Why `pattern` cannot be a path pattern, or null when it can. */
export function pathPatternProblem(pattern: string): string | null {
  if (pattern.trim() === '') return 'The pattern is empty.';
  if (pattern.includes('\\')) return 'Path patterns separate folders with `/`, not `\\`.';
  if (pattern.startsWith('/') || pattern.startsWith('~') || /^[A-Za-z]:/.test(pattern)) {
    return 'Path patterns are relative to the project folder (`src/**`), not absolute.';
  }
  if (pattern.split('/').some((part) => part === '..')) {
    return 'Path patterns cannot use `..`: they match files inside the project only.';
  }
  return null;
}

export function parsePathPattern(pattern: string, ignoreCase: boolean): PathPattern {
  const parts = pattern
    .trim()
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  const flags = ignoreCase ? 'si' : 's';
  let source = '';
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '**') {
      // `a/**` also matches `a` itself; `**/b` matches `b` at the top too.
      if (i === 0) source += last ? '.*' : '(?:.*/)?';
      else source += last ? '(?:/.*)?' : '(?:/.*)?/';
      return;
    }
    if (i > 0 && parts[i - 1] !== '**') source += '/';
    source += segmentSource(part);
  });
  return {
    // `.` (or `./`) names the project folder itself.
    regex: new RegExp(`^${parts.length === 0 ? '\\.' : source}$`, flags),
    segments: parts.map((part) => (part === '**' ? null : new RegExp(`^${segmentSource(part)}$`, flags))),
  };
}

/** One folder name's glob: `*` and `?` stay within it. */
function segmentSource(part: string): string {
  return globSource(part, { any: '[^/]*', one: '[^/]' });
}

/** Whether the project-relative path (`.` for the project folder) matches. */
export function matchesPath(pattern: PathPattern, relative: string): boolean {
  return pattern.regex.test(relative);
}

/**
 * Whether files the pattern matches may lie inside the folder `relative` (a search there may reach them):
 * `secrets/**` under `.` or `secrets`, `**\/*.pem` under any folder.
 */
export function mayMatchBelow(pattern: PathPattern, relative: string): boolean {
  const folders = relative === '.' ? [] : relative.split('/');
  for (let i = 0; i < folders.length; i++) {
    const segment = pattern.segments[i];
    if (segment === undefined) return false;
    if (segment === null) return true;
    if (!segment.test(folders[i] as string)) return false;
  }
  return pattern.segments.length > folders.length;
}
