import fsp from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import { isPathInside } from './path-guard';
import { readRegularFile } from './regular-file';

type Ignore = ReturnType<typeof ignore>;
type Chain = { dir: string; rules: Ignore }[];

/** Reads the `.gitignore` of a folder (absolute path): its text, or null when there is none. */
export type GitignoreLoader = (dir: string) => Promise<string | null>;

/** A `.gitignore` is read only when it is a regular file of sane size (a pipe would hang the read). */
const fromDisk: GitignoreLoader = async (dir) =>
  (await readRegularFile(path.join(dir, '.gitignore'), { maxBytes: 1024 * 1024 }))?.toString('utf8') ?? null;

/** The `.gitignore` files from `base` down, loaded lazily and cached per folder. */
export class GitignoreRules {
  private readonly chains = new Map<string, Promise<Chain>>();

  constructor(
    private readonly base: string,
    private readonly caseInsensitive: boolean,
    /** Where the `.gitignore` files come from: the disk, or a recorded snapshot of the project. */
    private readonly loadText: GitignoreLoader = fromDisk,
  ) {}

  async filterEntries<E extends { name: string; isDirectory(): boolean }>(
    dir: string,
    entries: E[],
  ): Promise<E[]> {
    const chain = await this.chainFor(dir);
    return entries.filter((entry) => {
      if (isGitFolderName(entry.name, this.caseInsensitive)) return false;
      return !testChain(chain, path.join(dir, entry.name), entry.isDirectory());
    });
  }

  async ignores(abs: string, isDir: boolean): Promise<boolean> {
    const dir = path.dirname(abs);
    if (!isPathInside(this.base, dir)) return false;
    const rel = path.relative(this.base, abs).split(path.sep);
    if (rel.some((part) => isGitFolderName(part, this.caseInsensitive))) return true;
    return testChain(await this.chainFor(dir), abs, isDir);
  }

  /** The rules that apply to entries of `dir`, deepest folder first. */
  private chainFor(dir: string): Promise<Chain> {
    let chain = this.chains.get(dir);
    if (!chain) {
      chain = this.buildChain(dir);
      this.chains.set(dir, chain);
    }
    return chain;
  }

  private async buildChain(dir: string): Promise<Chain> {
    const parent = path.dirname(dir);
    // Never climb above the project: .gitignore files outside it do not apply.
    const atTop = dir === this.base || parent === dir || !isPathInside(this.base, parent);
    const inherited = atTop ? [] : await this.chainFor(parent);
    const own = await this.load(dir);
    return own ? [{ dir, rules: own }, ...inherited] : inherited;
  }

  private async load(dir: string): Promise<Ignore | null> {
    const text = await this.loadText(dir);
    return text === null ? null : ignore({ ignorecase: this.caseInsensitive }).add(text);
  }
}

/** git's precedence: the deepest `.gitignore` with a matching rule decides. */
function testChain(chain: Chain, abs: string, isDir: boolean): boolean {
  for (const { dir, rules } of chain) {
    const rel = path.relative(dir, abs).split(path.sep).join('/') + (isDir ? '/' : '');
    const result = rules.test(rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

export function isGitFolderName(name: string, caseInsensitive: boolean): boolean {
  return caseInsensitive ? name.toLowerCase() === '.git' : name === '.git';
}
