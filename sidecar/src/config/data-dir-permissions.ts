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

/** Folders Cairn keeps at the top of its data directory. */
const CAIRN_FOLDERS = new Set(['logs', 'sessions', 'mcp', 'snapshots']);
/** Files a desktop's file browser leaves in any folder: neither Cairn's nor worth a word. */
const LEFT_BY_FILE_BROWSERS = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Whether a top-level name is one Cairn writes: cairn.db (-wal, -shm, .v3-….bak), cairn.lock(.break), token. */
function isCairnEntry(name: string): boolean {
  return CAIRN_FOLDERS.has(name) || name === 'token' || /^cairn\.(db|lock)($|[.-])/.test(name);
}

/**
 * Makes the data directory owner-only, at start, by the process that holds it: creates it 0700 when it is
 * missing, and narrows an existing one that let other users in (made by hand, or by an earlier Cairn).
 * Only Cairn's own entries are touched (cairn.db and its -wal/-shm and backups, cairn.lock, token, logs/, snapshots/,
 * sessions/, mcp/): a folder that also holds other files (`--data-dir .` in a project, say) keeps its own
 * mode and theirs, with a warning, since those files' modes are their owner's business and Cairn's own are
 * owner-only either way. Every start looks at the folder and its entries; only when one of them was open
 * are Cairn's folders walked: a tree an earlier version wrote, paid for once, while a start after it reads
 * one folder, not every tool call's files. Symlinks are not followed (their targets are not Cairn's).
 * Returns null when all was owner-only.
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

  const top = entries('');
  const others = top.filter((name) => !isCairnEntry(name) && !LEFT_BY_FILE_BROWSERS.has(name));
  let folderMode: number | null = null;
  if (others.length === 0) {
    attempt(dir, () => {
      folderMode = narrowToOwner(dir);
    });
  }
  const folders = top.filter(isCairnEntry).filter(narrow);
  if (folderMode !== null || narrowed.length > 0) for (const folder of folders) walk(folder);
  const sharedMode = others.length > 0 ? openMode(dir) : null;
  return describe(dir, { folderMode, sharedMode, others, narrowed, failed });
}

/** The folder's mode when group or other users may reach it, else null. */
function openMode(dir: string): number | null {
  try {
    const mode = fs.statSync(dir).mode & 0o777;
    return mode & 0o077 ? mode : null;
  } catch {
    return null;
  }
}

interface Findings {
  /** The folder's mode before Cairn narrowed it, or null when it was owner-only or left alone. */
  folderMode: number | null;
  /** The open mode of a folder left alone because it holds others' files. */
  sharedMode: number | null;
  /** Top-level entries that are not Cairn's. */
  others: string[];
  narrowed: string[];
  failed: string[];
}

function describe(dir: string, found: Findings): DataDirPermissionReport | null {
  const { folderMode, sharedMode, others, narrowed, failed } = found;
  if (folderMode === null && sharedMode === null && narrowed.length === 0 && failed.length === 0) return null;
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
  } else if (sharedMode !== null) {
    const own = narrowed.length > 0 ? ` Cairn has made its own entries owner-only (${named(narrowed)}).` : '';
    parts.push(
      `The data directory ${dir} is open to other users of this machine (mode ${octal(sharedMode)}) and holds ` +
        `files that are not Cairn's (${named(others)}), so Cairn has left the folder and those files as they ` +
        `are; its own files there are owner-only.${own} Give Cairn a folder of its own (--data-dir or ` +
        'CAIRN_DATA_DIR) so that other users cannot even see which sessions and logs it keeps.',
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
    level: folderMode !== null || sharedMode !== null || failed.length > 0 ? 'warn' : 'info',
    message: parts.join(' '),
    fields: {
      data_dir: dir,
      mode_was: folderMode === null ? null : octal(folderMode),
      narrowed: narrowed.length,
      ...(sharedMode !== null ? { left_open: octal(sharedMode), not_cairns: others.length } : {}),
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
