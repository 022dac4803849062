import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflate = promisify(zlib.deflateRaw);
const inflate = promisify(zlib.inflateRaw);

/** The id of some bytes in the store: their SHA-256, in hex. */
export function objectId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Content-addressed objects (file contents, link targets, folder trees) in a folder of Cairn's data, never
 * in the project: `objects/ab/cdef…`, compressed. Equal contents are kept once; objects never change, so a
 * write is a temporary file renamed into place and a crash leaves no half object.
 */
export class ObjectStore {
  /** Ids known to be stored: each is checked on disk once per process. */
  private readonly known = new Set<string>();

  constructor(readonly dir: string) {}

  private pathOf(id: string): string {
    return path.join(this.dir, 'objects', id.slice(0, 2), id.slice(2));
  }

  /** Stores `bytes` (once) and returns their id. */
  async put(bytes: Uint8Array): Promise<string> {
    const id = objectId(bytes);
    if (await this.has(id)) return id;
    const file = this.pathOf(id);
    await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fsp.writeFile(temp, await deflate(bytes, { level: 1 }), { mode: 0o600 });
    await fsp.rename(temp, file);
    this.known.add(id);
    return id;
  }

  async has(id: string): Promise<boolean> {
    if (this.known.has(id)) return true;
    try {
      await fsp.access(this.pathOf(id));
    } catch {
      return false;
    }
    this.known.add(id);
    return true;
  }

  /** The bytes stored under `id`; throws when they are not there. */
  async get(id: string): Promise<Buffer> {
    return inflate(await fsp.readFile(this.pathOf(id)));
  }

  /** Removes the objects (and left-over temporary files) not kept and last written before `before` (ms). */
  async sweep(kept: (id: string) => boolean, before: number): Promise<number> {
    const root = path.join(this.dir, 'objects');
    let removed = 0;
    for (const prefix of await fsp.readdir(root).catch(() => [] as string[])) {
      for (const name of await fsp.readdir(path.join(root, prefix)).catch(() => [] as string[])) {
        const id = prefix + name;
        if (kept(id)) continue;
        const file = path.join(root, prefix, name);
        const stat = await fsp.stat(file).catch(() => null);
        if (!stat || stat.mtimeMs >= before) continue;
        await fsp.rm(file, { force: true });
        this.known.delete(id);
        removed++;
      }
    }
    return removed;
  }
}
