import fs from 'node:fs';
import path from 'node:path';
import { makeOwnerOnlyDir, narrowToOwner } from './owner-only-files';

/** What to tell the user about the data directory's modes at start. */
export interface DataDirPermissionReport {
  /** 'warn' when other users could reach the contents, or a mode could not be narrowed. */
  level: 'warn' | 'info';
  message: string;
  fields: Record<string, unknown>;
}

/** How many narrowed entries a message names before it counts the rest. */
const NAMED = 5;

/**
 * Makes the data directory owner-only, at start, by the process that holds it: creates it 0700 when it is
 * missing, and narrows an existing one that let other users in (made by hand, or by an earlier Cairn).
 * Every start looks at the folder and its entries (cairn.db and its -wal/-shm, cairn.lock, token, backups,
 * logs/, sessions/, mcp/). Only when one of them was open is the whole tree walked: that is a folder an
 * earlier version wrote, paid for once, while a start after it reads one folder, not every tool call's
 * files. Symlinks are not followed (their targets are not Cairn's). Returns null when all was owner-only.
 */
export function secureDataDir(dir: string): DataDirPermissionReport | null {
  makeOwnerOnlyDir(dir);
  if (process.platform === 'win32') return null;
  const narrowed: string[] = [];
  const failed: string[] = [];
  const attempt = (name: string, action: () => void): void => {
    try {
      action();
    } catch (err) {
      failed.push(`${name} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const entries = (relative: string): string[] => {
    let names: string[] = [];
    attempt(relative || dir, () => {
      names = fs.readdirSync(path.join(dir, relative));
    });
    return names.map((name) => path.join(relative, name));
  };
  /** Narrows one entry; returns whether it is a folder to look into. */
  const narrow = (relative: string): boolean => {
    let folder = false;
    attempt(relative, () => {
      const stats = fs.lstatSync(path.join(dir, relative));
      if (stats.isSymbolicLink()) return;
      if (narrowToOwner(path.join(dir, relative), stats) !== null) narrowed.push(relative);
      folder = stats.isDirectory();
    });
    return folder;
  };
  const walk = (relative: string): void => {
    for (const entry of entries(relative)) if (narrow(entry)) walk(entry);
  };

  let folderMode: number | null = null;
  attempt(dir, () => {
    folderMode = narrowToOwner(dir);
  });
  const folders = entries('').filter(narrow);
  if (folderMode !== null || narrowed.length > 0) for (const folder of folders) walk(folder);
  return describe(dir, folderMode, narrowed, failed);
}

function describe(
  dir: string,
  folderMode: number | null,
  narrowed: string[],
  failed: string[],
): DataDirPermissionReport | null {
  if (folderMode === null && narrowed.length === 0 && failed.length === 0) return null;
  const parts: string[] = [];
  const inside =
    narrowed.length > 0
      ? `, with ${count(narrowed.length, 'entry', 'entries')} in it that were open (${named(narrowed)})`
      : '';
  if (folderMode !== null) {
    parts.push(
      `The data directory ${dir} was open to other users of this machine (mode ${octal(folderMode)}), ` +
        `who could read its conversations, tool results and logs. Cairn has made it owner-only (0700)${inside}.`,
    );
  } else if (narrowed.length > 0) {
    parts.push(
      `Cairn has made ${count(narrowed.length, 'entry', 'entries')} of the data directory ${dir} owner-only ` +
        `(${named(narrowed)}); the folder itself was owner-only, so other users could not reach them.`,
    );
  }
  if (failed.length > 0) {
    parts.push(
      `Cairn could not make ${named(failed)} in ${dir} owner-only: check who owns ${failed.length === 1 ? 'it' : 'them'}, ` +
        `and run chmod go-rwx on ${failed.length === 1 ? 'it' : 'each'}.`,
    );
  }
  return {
    level: folderMode !== null || failed.length > 0 ? 'warn' : 'info',
    message: parts.join(' '),
    fields: {
      data_dir: dir,
      mode_was: folderMode === null ? null : octal(folderMode),
      narrowed: narrowed.length,
      ...(failed.length > 0 ? { failed } : {}),
    },
  };
}

function named(names: string[]): string {
  const shown = names.slice(0, NAMED).join(', ');
  return names.length > NAMED ? `${shown} and ${names.length - NAMED} more` : shown;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function octal(mode: number): string {
  return `0${mode.toString(8)}`;
}
