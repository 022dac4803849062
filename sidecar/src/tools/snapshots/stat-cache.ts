import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** What a file's stat said when its content was last read, and the id that content had. */
interface Cached {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  id: string;
  /** When the content was read. */
  readAt: number;
}

/**
 * A file whose modification time is this close to when it was read may have changed again within the
 * file system's time resolution (up to 2 s on FAT): it is read again next time, as git does with racy entries.
 */
const RACY_MS = 2000;

/**
 * The ids of the project's files by their stat, kept between scans (and restarts) like git's index: a file
 * whose size, times and inode are unchanged is not read again.
 */
export class StatCache {
  private entries = new Map<string, Cached>();
  private next = new Map<string, Cached>();
  private dirty = false;

  private constructor(private readonly file: string) {}

  static async load(file: string): Promise<StatCache> {
    const cache = new StatCache(file);
    try {
      const rows = JSON.parse(await fsp.readFile(file, 'utf8')) as [string, Cached][];
      cache.entries = new Map(rows);
    } catch {
      // None yet, or unreadable: every file is read once.
    }
    return cache;
  }

  /** The id of the content a file with this stat has, when it was read before and has not changed since. */
  lookup(rel: string, stat: Stats): string | null {
    const c = this.entries.get(rel);
    if (!c || !sameStat(c, stat) || stat.mtimeMs + RACY_MS >= c.readAt) return null;
    this.next.set(rel, c);
    return c.id;
  }

  remember(rel: string, stat: Stats, id: string, readAt: number): void {
    this.next.set(rel, {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      ino: stat.ino,
      id,
      readAt,
    });
    this.dirty = true;
  }

  /** Ends a scan: what it did not see is forgotten; the cache is written when it changed. */
  async commit(): Promise<void> {
    if (this.next.size !== this.entries.size) this.dirty = true;
    this.entries = this.next;
    this.next = new Map();
    if (!this.dirty) return;
    this.dirty = false;
    await fsp.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    await fsp.writeFile(temp, JSON.stringify([...this.entries]), { mode: 0o600 });
    await fsp.rename(temp, this.file);
  }

  /** The ids the cache hands out without reading: their objects must stay in the store. */
  ids(): Set<string> {
    return new Set([...this.entries.values()].map((c) => c.id));
  }

  /** A scan that failed leaves the cache as it was. */
  abandon(): void {
    this.next = new Map();
  }
}

function sameStat(c: Cached, stat: Stats): boolean {
  return (
    c.size === stat.size && c.mtimeMs === stat.mtimeMs && c.ctimeMs === stat.ctimeMs && c.ino === stat.ino
  );
}
