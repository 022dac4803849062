// The parts the desktop app is made of, and building them: the web UI (renderer/dist), the sidecar bundle
// (dist/sidecar/cairn.mjs) and the Electron main process and preload (dist/electron/*.cjs).
import { buildBundle, bundleIsStale } from './bundles.mjs';
import { buildRenderer, rendererIsStale } from './renderer.mjs';

const PARTS = {
  renderer: { bundles: [], label: 'web UI (renderer/dist)' },
  sidecar: { bundles: ['sidecar'], label: 'sidecar bundle (dist/sidecar/cairn.mjs)' },
  electron: { bundles: ['main', 'preload'], label: 'Electron main process and preload (dist/electron)' },
};

export const PART_NAMES = Object.keys(PARTS);

/**
 * Builds the named parts (all by default), each only when stale if `ifStale`. Returns the parts it built.
 * @param {{ only?: string[], ifStale?: boolean, log?: (line: string) => void }} options
 */
export async function buildApp({ only = PART_NAMES, ifStale = false, log = console.error } = {}) {
  const unknown = only.filter((part) => !(part in PARTS));
  if (unknown.length > 0) {
    throw new Error(`Unknown part ${unknown.join(', ')}: choose from ${PART_NAMES.join(', ')}.`);
  }
  const built = [];
  for (const part of only) {
    const { bundles, label } = PARTS[part];
    if (ifStale) {
      const stale = part === 'renderer' ? rendererIsStale() : bundles.some((name) => bundleIsStale(name));
      if (!stale) continue;
    }
    log(`Building the ${label}…`);
    if (part === 'renderer') buildRenderer();
    for (const name of bundles) await buildBundle(name);
    built.push(part);
  }
  return built;
}
