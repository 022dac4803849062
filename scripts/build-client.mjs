#!/usr/bin/env node
// `npm run build:client`: Cairn's public client (sidecar/src/client) as the package's `cairn/client` export:
// one ES module with zod bundled in (dist/client/index.js, for Node scripts and browsers alike) and its
// type declarations (dist/client/types, emitted by tsc from the sources).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'dist', 'client');
const TYPES = path.join(OUT, 'types');

fs.rmSync(OUT, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: ['sidecar/src/client/index.ts'],
  outfile: path.join(OUT, 'index.js'),
  bundle: true,
  // Neither Node's nor the browser's: the client imports no platform module (the architecture test checks).
  platform: 'neutral',
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'es2022',
  sourcemap: 'linked',
  legalComments: 'eof',
  logLevel: 'warning',
});
execFileSync(
  process.execPath,
  [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'sidecar/tsconfig.client.json'],
  { cwd: ROOT, stdio: 'inherit' },
);
// The sources import without extensions (bundler resolution); Node's ESM resolution, which a script's
// TypeScript follows for an ES module package, wants the file named: './x' → './x.js', '../protocol' → its index.
for (const file of fs.readdirSync(TYPES, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const full = path.join(TYPES, file);
  const text = fs
    .readFileSync(full, 'utf8')
    .replace(/(from |import\()'(\.{1,2}\/[^']+)'/g, (_, lead, spec) => {
      const target = path.resolve(path.dirname(full), spec);
      const named = fs.existsSync(`${target}.d.ts`) ? `${spec}.js` : `${spec}/index.js`;
      return `${lead}'${named}'`;
    });
  fs.writeFileSync(full, text);
}
