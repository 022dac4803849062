// The esbuild bundles the desktop app runs: the sidecar CLI (dist/sidecar/cairn.mjs) and the Electron main
// process and preload (dist/electron/main.cjs, preload.cjs). Each build also writes its esbuild metafile to
// dist/meta/, which tells later runs which sources a bundle was made from (to rebuild only what is stale)
// and lets the packaging test check what was bundled and what was left external.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { isNativePackage, packageDirOf, ROOT, runtimeDependencies } from './runtime-deps.mjs';

// The sidecar's entry: the program's main() (sidecar/src/main.ts), as sidecar/bin/cairn.mjs runs it from source. It exists only as
// esbuild's stdin, under this name.
const SIDECAR_ENTRY_NAME = 'cairn-bundle-entry.ts';
const SIDECAR_ENTRY = [
  "import { main } from './sidecar/src/main.ts';",
  'process.exitCode = await main(process.argv.slice(2));',
  '',
].join('\n');

// Bundled CommonJS packages call require(); in an ES module it must be made.
const ESM_REQUIRE_BANNER = [
  "import { createRequire as __cairnCreateRequire } from 'node:module';",
  'const require = __cairnCreateRequire(import.meta.url);',
].join('\n');

/** @typedef {'sidecar' | 'main' | 'preload'} BundleName */

/** Packages the sidecar loads only when present (from source), never shipped: left out of the bundle. */
export const DEV_ONLY_LOADS = ['esbuild'];

/** @type {BundleName[]} */
export const BUNDLE_NAMES = ['sidecar', 'main', 'preload'];

/**
 * The esbuild options of one bundle.
 * @param {BundleName} name
 */
function bundleOptions(name, root) {
  const external = runtimeDependencies(root);
  const common = {
    absWorkingDir: root,
    bundle: true,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    legalComments: 'eof',
  };
  switch (name) {
    case 'sidecar':
      return {
        ...common,
        stdin: { contents: SIDECAR_ENTRY, resolveDir: root, sourcefile: SIDECAR_ENTRY_NAME, loader: 'ts' },
        outfile: path.join(root, 'dist', 'sidecar', 'cairn.mjs'),
        platform: 'node',
        format: 'esm',
        target: 'node20',
        // esbuild compiles a TypeScript tool (LoadTool) only under a Node without its own type stripping,
        // from source; it cannot be bundled, and the packaged app's Node strips types itself.
        external: [...external, ...DEV_ONLY_LOADS],
        // sidecar/src/config/app-paths.ts: the app root is two folders up from the bundle.
        define: { __CAIRN_BUNDLE__: 'true' },
        banner: { js: ESM_REQUIRE_BANNER },
      };
    case 'main':
      return {
        ...common,
        entryPoints: [path.join(root, 'electron', 'src', 'main.ts')],
        outfile: path.join(root, 'dist', 'electron', 'main.cjs'),
        platform: 'node',
        format: 'cjs',
        // Electron 41 runs Node 24; node22 keeps the output plain for any supported Electron.
        target: 'node22',
        external: ['electron', ...external],
      };
    case 'preload':
      return {
        ...common,
        entryPoints: [path.join(root, 'electron', 'src', 'preload.ts')],
        outfile: path.join(root, 'dist', 'electron', 'preload.cjs'),
        // A sandboxed preload can require only `electron`: the browser platform makes any Node import fail here.
        platform: 'browser',
        format: 'cjs',
        target: 'chrome130',
        external: ['electron'],
      };
    default:
      throw new Error(`unknown bundle "${name}"`);
  }
}

/** @param {BundleName} name */
export function bundleOutput(name, root = ROOT) {
  return bundleOptions(name, root).outfile;
}

/** @param {BundleName} name */
export function metafilePath(name, root = ROOT) {
  return path.join(root, 'dist', 'meta', `${name}.json`);
}

/** The source file a bundle starts from, when it is a file. */
function entryFile(name, root) {
  const options = bundleOptions(name, root);
  return options.entryPoints?.[0] ?? null;
}

/**
 * Whether a bundle must be rebuilt: it is missing, or any file it was made from (or package.json, which
 * decides what is external, or these build scripts) changed after it was written.
 * @param {BundleName} name
 */
export function bundleIsStale(name, root = ROOT) {
  const output = bundleOutput(name, root);
  const metaFile = metafilePath(name, root);
  if (!fs.existsSync(output) || !fs.existsSync(metaFile)) return true;
  const builtAt = fs.statSync(output).mtimeMs;
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
  // Skipped: the stdin entry and esbuild's own virtual modules (<runtime>, namespaced paths).
  const inputs = Object.keys(meta.inputs).filter(
    (input) => input !== SIDECAR_ENTRY_NAME && !input.startsWith('<') && !input.includes(':'),
  );
  const buildScripts = fs
    .readdirSync(import.meta.dirname)
    .map((file) => path.join(import.meta.dirname, file));
  const watched = [...inputs.map((input) => path.join(root, input)), path.join(root, 'package.json')];
  for (const file of [...watched, ...buildScripts]) {
    if (!fs.existsSync(file) || fs.statSync(file).mtimeMs > builtAt) return true;
  }
  return false;
}

/**
 * Builds one bundle and writes it with its metafile. Fails, writing nothing, when the entry is missing
 * or when a package with native code would be bundled.
 * @param {BundleName} name
 */
export async function buildBundle(name, root = ROOT) {
  const entry = entryFile(name, root);
  if (entry !== null && !fs.existsSync(entry)) {
    throw new Error(
      `${path.relative(root, entry)} is missing, so ${path.relative(root, bundleOutput(name, root))} cannot be built. ` +
        'The desktop app needs the Electron main process and its preload; `npm run serve` runs the same app in a browser without them.',
    );
  }
  const result = await esbuild.build(bundleOptions(name, root));
  // import.meta is empty in a CommonJS bundle: code relying on it would find nothing at run time.
  const emptyImportMeta = result.warnings.filter((warning) => warning.id === 'empty-import-meta');
  if (emptyImportMeta.length > 0) {
    const where = emptyImportMeta.map((w) => `${w.location?.file}:${w.location?.line}`).join(', ');
    throw new Error(
      `The ${name} bundle is CommonJS, where import.meta is empty (${where}): use __dirname or app.getAppPath().`,
    );
  }
  const native = nativePackagesIn(result.metafile, root);
  if (native.length > 0) {
    throw new Error(
      `The ${name} bundle would include packages with native code, which cannot work bundled: ${native.join(', ')}. ` +
        'Add them to "dependencies" in package.json: runtime dependencies stay external and ship in node_modules, ' +
        'where electron-builder rebuilds them for Electron.',
    );
  }
  for (const file of result.outputFiles) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, file.contents);
  }
  fs.mkdirSync(path.dirname(metafilePath(name, root)), { recursive: true });
  fs.writeFileSync(metafilePath(name, root), JSON.stringify(result.metafile));
  return result.metafile;
}

function nativePackagesIn(metafile, root) {
  const found = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input);
    if (dir !== null && isNativePackage(path.join(root, dir)))
      found.add(dir.split(/node_modules[\\/]/).pop());
  }
  return [...found];
}
