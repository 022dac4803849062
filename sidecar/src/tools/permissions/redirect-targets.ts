import fs from 'node:fs/promises';
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

/** What else the command line does that changes where a relative target lands. */
export interface RedirectContext {
  /** It changes its directory (`cd`), so relative targets are relative to somewhere else. */
  changesDirectory: boolean;
  /**
   * It runs a command that can make links (`ln`, `cp`, `git checkout`, `tar x`…). The targets are
   * resolved before anything runs, so a folder on a target's path may be a link to outside by the time
   * the redirect opens it (`ln -s /tmp y; echo > y/x`). Then a target with a folder in it is not vouched.
   */
  makesLinks: boolean;
}

/** Programs that can put a symbolic link (or a folder) where a later redirect's path goes through. */
export const LINK_MAKERS = new Set(['ln', 'cp', 'mv', 'rsync', 'install', 'git', 'tar', 'unzip', 'cpio']);

/**
 * The redirects that cannot be vouched for: a target outside the project, one only known when the command
 * runs, a relative one after the command changed its directory (it is then relative to somewhere else), one
 * into a `.git` folder (git runs commands its configuration and hooks name), or one through a folder the
 * same line may have replaced with a link.
 */
export async function unvouchedRedirects(
  redirects: readonly RedirectTarget[],
  projectRoot: string | null,
  context: RedirectContext,
): Promise<{ text: string; reason: string }[]> {
  const found: { text: string; reason: string }[] = [];
  for (const { target, text } of redirects) {
    const reason = await redirectProblem(target, projectRoot, context);
    if (reason !== null) found.push({ text, reason });
  }
  return found;
}

async function redirectProblem(
  target: ShellWord,
  projectRoot: string | null,
  { changesDirectory, makesLinks }: RedirectContext,
): Promise<string | null> {
  const value = target.value;
  if (value === null) return `It writes to \`${target.text}\`, a file only known when it runs.`;
  if (HARMLESS_DEVICES.test(value)) return null;
  if (inGitFolder(value))
    return `It writes to ${value}, inside a .git folder, which can make git run commands.`;
  if (makesLinks && value.includes('/')) {
    return `It writes to ${value}, and the same command may first make a link on that path, so where it writes cannot be known.`;
  }
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
  let resolved: string;
  try {
    // Symlinks are followed, so a link inside the project cannot send the output outside unseen.
    resolved = await resolveInside(projectRoot, file);
  } catch {
    return `It writes to ${value}, outside the project.`;
  }
  const relative = path.relative(await fs.realpath(projectRoot).catch(() => projectRoot), resolved);
  if (inGitFolder(relative))
    return `It writes to ${value}, inside a .git folder, which can make git run commands.`;
  return null;
}

/** Whether a path goes through a folder named `.git` (any case: some file systems ignore it). */
export function inGitFolder(file: string): boolean {
  return file.split(/[\\/]/).some((part) => part.toLowerCase() === '.git');
}
