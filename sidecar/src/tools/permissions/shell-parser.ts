import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, type Node, Parser } from 'web-tree-sitter';
import { packagedResource } from '../../config/app-paths';

/** A bash parser: the tree-sitter-bash grammar running in web-tree-sitter's WebAssembly runtime. */
export interface BashParser {
  /**
   * Parses `text` and hands its root node to `read`, freeing the tree afterwards (trees live in the
   * WebAssembly heap, not the JS one). Null when the parser gave no tree at all.
   */
  withTree<T>(text: string, read: (root: Node) => T): T | null;
}

let loading: Promise<BashParser> | null = null;

/** The one bash parser, loaded on first use (the two .wasm files are read once per process). */
export function loadBashParser(): Promise<BashParser> {
  if (loading === null) {
    loading = createBashParser();
    // A failed load (a missing file) may be retried rather than cached for the process's life.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * Where a .wasm file is: in the packaged app, a resource beside the archive (the JavaScript of both packages
 * is bundled; node_modules does not ship them); else in node_modules, found by Node's resolution.
 */
function wasmFile(pkg: string, file: string): string {
  return packagedResource('shell-grammar', file) ?? createRequire(import.meta.url).resolve(`${pkg}/${file}`);
}

async function createBashParser(): Promise<BashParser> {
  // Both .wasm files are read here and handed over as bytes, so neither library looks for them itself.
  const [runtime, grammar] = await Promise.all([
    fs.readFile(wasmFile('web-tree-sitter', 'web-tree-sitter.wasm')),
    fs.readFile(wasmFile('tree-sitter-bash', 'tree-sitter-bash.wasm')),
  ]);
  await Parser.init({ wasmBinary: runtime } as Parameters<typeof Parser.init>[0]);
  const language = await Language.load(new Uint8Array(grammar));
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    withTree(text, read) {
      const tree = parser.parse(text);
      if (tree === null) return null;
      try {
        return read(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
  };
}
