import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { englishAreas, firstScreenAreas } from './support/i18n-areas';

// The first screen loads the entry chunk and what it imports statically; everything else is a chunk of its
// own, fetched when first shown. Reads the built renderer (`npm test` builds it first) through Vite's
// manifest, which says which chunk each lazily imported module became and what each chunk imports.

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const MANIFEST = path.join(DIST, '.vite', 'manifest.json');

function readManifest(): Record<string, ManifestChunk> {
  if (!fs.existsSync(MANIFEST)) {
    throw new Error(`No ${MANIFEST}: build the renderer first (npm run build:renderer).`);
  }
  return JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
}

/** The manifest keys of the entry and every chunk it imports statically, however deep. */
function firstScreen(manifest: Record<string, ManifestChunk>): Set<string> {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest names no entry chunk');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  return seen;
}

/** The manifest key whose source path ends with `suffix` (node_modules may sit behind a symlink). */
function keyFor(manifest: Record<string, ManifestChunk>, suffix: string): string {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`No chunk of its own for ${suffix}: it is bundled where it is imported`);
  return key;
}

describe('the renderer build', () => {
  const manifest = readManifest();
  const loadedFirst = firstScreen(manifest);

  it.each([
    'src/components/SettingsPage.tsx',
    'src/components/OpenProjectDialog.tsx',
    'src/components/sessions/SearchDialog.tsx',
    'src/components/kernel/KernelPanel.tsx',
    'src/components/context/ContextPanel.tsx',
    'src/components/mcp/McpSessionPanel.tsx',
    'src/components/ApprovalChoices.tsx',
    'src/components/ElicitationForm.tsx',
    'src/components/changes/FileChangeList.tsx',
    'lowlight/index.js',
    'highlight.js/es/languages/typescript.js',
    'highlight.js/es/languages/python.js',
    'src/i18n/catalog-zh-CN.ts',
  ])('loads %s only when it is first needed', (suffix) => {
    const key = keyFor(manifest, suffix);
    expect(manifest[key]!.isDynamicEntry).toBe(true);
    expect(loadedFirst.has(key)).toBe(false);
  });

  it('keeps highlight.js out of the script the first screen loads', () => {
    for (const key of loadedFirst) {
      const code = fs.readFileSync(path.join(DIST, manifest[key]!.file), 'utf8');
      // highlight.js's own error text, in its core only.
      expect(code.includes('Language definition for')).toBe(false);
    }
  });

  const code = (key: string) => fs.readFileSync(path.join(DIST, manifest[key]!.file), 'utf8');
  const first = () => [...loadedFirst].map(code).join('\n');

  it('keeps the Chinese strings out of the script the first screen loads, in a chunk fetched when chosen', () => {
    // Settings' title in Chinese; English's first-screen strings (one of them here) must stay.
    expect(first().includes('设置')).toBe(false);
    expect(first().includes('Toggle side panel')).toBe(true);
    expect(code(keyFor(manifest, 'src/i18n/catalog-zh-CN.ts')).includes('设置')).toBe(true);
  });

  it("ships the first screen's English areas with it, and every other area only in a chunk loaded later", async () => {
    const firstScreen = firstScreenAreas();
    const everything = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js'))
      .map((file) => fs.readFileSync(path.join(DIST, file), 'utf8'))
      .join('\n');
    const shipped = first();
    for (const [file, strings] of await englishAreas()) {
      // The area's longest plain string: one the minifier leaves as written, and no other area has.
      const sample = Object.values(strings)
        .filter((text) => /^[ -~]+$/.test(text) && !/['"\\`]/.test(text))
        .sort((a, b) => b.length - a.length)[0]!;
      const area = path.basename(file);
      expect(everything.includes(sample), `${area}: "${sample}" is in the build`).toBe(true);
      expect(shipped.includes(sample), `${area}: "${sample}" is in the first screen`).toBe(
        firstScreen.has(file),
      );
    }
  });
});
