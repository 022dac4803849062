import type { ObjectStore } from './object-store';

/** `exec`: a file with its executable bit; `large`: over the size kept, recorded by size and time only. */
export type FileKind = 'file' | 'exec' | 'link' | 'large';
export type EntryKind = FileKind | 'dir';

/** One entry of a folder's tree: `id` names an object (a `large` file's is its size and time). */
export interface TreeEntry {
  name: string;
  kind: EntryKind;
  id: string;
  size: number;
}

/** A file (or link) as recorded. */
export interface FileEntry {
  kind: FileKind;
  id: string;
  size: number;
}

/** A path that differs between two trees: null on the side where it does not exist. */
export interface PathChange {
  path: string;
  before: FileEntry | null;
  after: FileEntry | null;
}

/** A folder's entries as stored: sorted by name, so equal folders have equal ids. */
export function serializeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return Buffer.from(JSON.stringify(sorted.map((e) => [e.name, e.kind, e.id, e.size])));
}

/** Trees keep their ids forever, so a parsed one is cached (a few thousand at most). */
const CACHE_LIMIT = 5000;

/** Reads recorded trees: the files of one, and the paths two differ in (only differing folders are read). */
export class TreeReader {
  private readonly cache = new Map<string, Map<string, TreeEntry>>();

  constructor(private readonly objects: ObjectStore) {}

  async read(id: string): Promise<Map<string, TreeEntry>> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const rows = JSON.parse((await this.objects.get(id)).toString('utf8')) as [
      string,
      EntryKind,
      string,
      number,
    ][];
    const tree = new Map(
      rows.map(([name, kind, entryId, size]) => [name, { name, kind, id: entryId, size }]),
    );
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(id, tree);
    return tree;
  }

  /** Every file of the tree by its `/`-separated path. */
  async files(id: string, prefix = ''): Promise<Map<string, FileEntry>> {
    const out = new Map<string, FileEntry>();
    for (const entry of (await this.read(id)).values()) {
      const rel = prefix + entry.name;
      if (entry.kind === 'dir') {
        for (const [p, f] of await this.files(entry.id, `${rel}/`)) out.set(p, f);
      } else out.set(rel, { kind: entry.kind, id: entry.id, size: entry.size });
    }
    return out;
  }

  /** The file at a `/`-separated path, or null. */
  async file(id: string, rel: string): Promise<FileEntry | null> {
    const parts = rel.split('/');
    let tree = await this.read(id);
    for (let i = 0; i < parts.length; i++) {
      const entry = tree.get(parts[i] ?? '');
      if (!entry) return null;
      if (i === parts.length - 1)
        return entry.kind === 'dir' ? null : { kind: entry.kind, id: entry.id, size: entry.size };
      if (entry.kind !== 'dir') return null;
      tree = await this.read(entry.id);
    }
    return null;
  }

  /** The paths whose files differ between two trees, sorted. */
  async diff(before: string, after: string): Promise<PathChange[]> {
    const out: PathChange[] = [];
    await this.diffInto(before, after, '', out);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async diffInto(before: string | null, after: string | null, prefix: string, out: PathChange[]) {
    if (before === after) return;
    const a = before ? await this.read(before) : new Map<string, TreeEntry>();
    const b = after ? await this.read(after) : new Map<string, TreeEntry>();
    for (const name of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(name) ?? null;
      const y = b.get(name) ?? null;
      if (x && y && x.kind === y.kind && x.id === y.id) continue;
      const rel = prefix + name;
      const xDir = x?.kind === 'dir' ? x.id : null;
      const yDir = y?.kind === 'dir' ? y.id : null;
      if (xDir || yDir) await this.diffInto(xDir, yDir, `${rel}/`, out);
      const xFile = x && x.kind !== 'dir' ? { kind: x.kind, id: x.id, size: x.size } : null;
      const yFile = y && y.kind !== 'dir' ? { kind: y.kind, id: y.id, size: y.size } : null;
      if (xFile || yFile) out.push({ path: rel, before: xFile, after: yFile });
    }
  }
}
