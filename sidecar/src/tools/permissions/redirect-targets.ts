import os from 'node:os';
import path from 'node:path';
import { resolveInside } from '../path-guard';
import type { ShellWord } from './shell-words';

/** A redirect that writes to a file: `> out.txt`, `2>> log`, `&> /tmp/x`. */
export interface RedirectTarget {
  target: ShellWord;
  /** The redirect as written. */
  text: string;
}

/** Devices a command may always write to: they hold no file of the user's. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/**
 * The redirects that cannot be vouched for: a target outside the project, one only known when the command
 * runs, or a relative one after the command changed its directory (it is then relative to somewhere else).
 */
export async function unvouchedRedirects(
  redirects: readonly RedirectTarget[],
  projectRoot: string | null,
  changesDirectory: boolean,
): Promise<{ text: string; reason: string }[]> {
  const found: { text: string; reason: string }[] = [];
  for (const { target, text } of redirects) {
    const reason = await redirectProblem(target, projectRoot, changesDirectory);
    if (reason !== null) found.push({ text, reason });
  }
  return found;
}

async function redirectProblem(
  target: ShellWord,
  projectRoot: string | null,
  changesDirectory: boolean,
): Promise<string | null> {
  const value = target.value;
  if (value === null) return `It writes to \`${target.text}\`, a file only known when it runs.`;
  if (HARMLESS_DEVICES.test(value)) return null;
  let file = value;
  if (value === '~' || value.startsWith('~/')) file = path.join(os.homedir(), value.slice(1));
  else if (value.startsWith('~')) return `It writes to ${value}, in another user's home folder.`;
  if (!path.isAbsolute(file)) {
    if (changesDirectory) {
      return `It writes to ${value} after changing directory, so where that file is cannot be known.`;
    }
    if (projectRoot === null) return `It writes to ${value}, and there is no project folder it could be in.`;
  }
  if (projectRoot === null) return `It writes to ${value}, outside any project.`;
  try {
    // Symlinks are followed, so a link inside the project cannot send the output outside unseen.
    await resolveInside(projectRoot, file);
    return null;
  } catch {
    return `It writes to ${value}, outside the project.`;
  }
}
