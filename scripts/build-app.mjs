#!/usr/bin/env node
// `npm run build:app`: builds everything the desktop app is made of (see scripts/build/app.mjs).
//
//   node scripts/build-app.mjs [--only renderer,sidecar,electron] [--if-stale]
//
// --only builds just the named parts; --if-stale skips parts already newer than their sources.
import { parseArgs } from 'node:util';
import { buildApp } from './build/app.mjs';

const { values } = parseArgs({
  options: { only: { type: 'string' }, 'if-stale': { type: 'boolean', default: false } },
  strict: true,
});
try {
  await buildApp({
    only: values.only?.split(',').map((part) => part.trim()),
    ifStale: values['if-stale'],
  });
} catch (error) {
  console.error(`build-app: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
