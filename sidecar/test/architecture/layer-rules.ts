import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The layers of the sidecar and which others each may use (DESIGN.md's module table). Leaves anyone may
 * use are added to every row but protocol's; a folder may always use itself.
 */
export const LEAVES = ['config', 'log', 'secrets', 'process', 'errors'] as const;

export const LAYERS: Record<string, string[]> = {
  // The program's entry (sidecar/src/main.ts): the one place the two front doors meet.
  main: ['cli', 'server'],
  server: ['application', 'protocol'],
  cli: ['application', 'client', 'protocol'],
  // The public client (renderer, CLI, scripts): the wire shapes only; its WebSocket is handed in.
  client: ['protocol'],
  application: ['agent', 'context', 'tools', 'kernels', 'mcp', 'store', 'protocol'],
  agent: ['context', 'tools', 'store', 'protocol'],
  // context sits beside tools: it may know their shapes (TYPE_ONLY), not run them.
  context: ['kernels', 'store', 'protocol'],
  tools: ['kernels', 'mcp', 'store', 'protocol'],
  kernels: ['store', 'protocol'],
  mcp: ['store', 'protocol'],
  store: ['protocol'],
  // The wire shapes go to the renderer and the host as they are: zod and each other, not even the leaves.
  protocol: [],
  // Leaves use each other and the wire shapes (errors carry protocol's codes), nothing above.
  ...Object.fromEntries(LEAVES.map((leaf) => [leaf, ['protocol', ...LEAVES.filter((l) => l !== leaf)]])),
};

/** Layers a layer may use through `import type` / `export type` only: erased at compile time. */
export const TYPE_ONLY: Record<string, string[]> = {
  context: ['tools'],
};

/** Layers that may use only the packages listed (any other layer may use any package). */
export const PACKAGES: Record<string, string[]> = {
  protocol: ['zod'],
  client: ['zod'],
};

/** Layers that do not get the leaves added to their row. */
const WITHOUT_LEAVES = new Set(['protocol', 'client']);

const leavesOf = (layer: string): readonly string[] => (WITHOUT_LEAVES.has(layer) ? [] : LEAVES);

/** What sidecar/bin's launcher may load: tsx, to run the sources, and the program. */
const BIN_PACKAGES = ['tsx'];
const BIN_TARGET = 'sidecar/src/main';

/** What the desktop host may take from the sidecar: shapes, and process-level facts both apply. */
const ELECTRON_MAY_USE = [
  'sidecar/src/protocol',
  'sidecar/src/config/system-ca',
  'sidecar/src/secrets/keytar-store',
];

/** Packages that only run in Node or belong to the sidecar: none of them may reach the renderer's bundle. */
const SIDECAR_ONLY_PACKAGES = [
  'ws',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'keytar',
  'fastify',
  '@fastify/',
  'undici',
  '@jupyterlab/services',
  'tinyglobby',
  'ignore',
  'electron',
];

/** Packages of the agent runtime: the desktop host knows nothing of agents. */
const AGENT_PACKAGES = [
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'fastify',
  '@fastify/',
  '@jupyterlab/services',
];

/** The layer of a file under sidecar/src (its first folder, or the file's own name at the top). */
export function sidecarLayerOf(rel: string): string | null {
  if (!rel.startsWith('sidecar/src/')) return null;
  const first = rel.slice('sidecar/src/'.length).split('/')[0]!;
  return first.replace(/\.(ts|mts)$/, '');
}

/** A layer and everything below it that it may reach, through the arrows (type-only ones too). */
export function reachable(layer: string): Set<string> {
  const seen = new Set<string>([layer]);
  const queue = [layer];
  while (queue.length > 0) {
    const next = queue.pop()!;
    for (const to of [...(LAYERS[next] ?? []), ...(TYPE_ONLY[next] ?? []), ...leavesOf(next)]) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

const isTestFile = (rel: string) => /\.test(\.(ts|tsx|mts))?$/.test(rel);
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
const isPackageIn = (spec: string, list: string[]) =>
  list.some((p) => (p.endsWith('/') ? spec.startsWith(p) : spec === p || spec.startsWith(`${p}/`)));

/** Where a file sits, which decides what it may import. */
type Zone =
  | { kind: 'sidecar'; layer: string }
  | { kind: 'sidecar-bin' }
  | { kind: 'sidecar-test'; layer: string | null }
  | { kind: 'renderer' }
  | { kind: 'renderer-test' }
  | { kind: 'renderer-live-test' }
  | { kind: 'electron' }
  | { kind: 'electron-test' }
  | { kind: 'scripts' }
  | { kind: 'support' };

export function zoneOf(rel: string): Zone | null {
  if (rel.startsWith('sidecar/src/')) return { kind: 'sidecar', layer: sidecarLayerOf(rel)! };
  if (rel.startsWith('sidecar/bin/')) return { kind: 'sidecar-bin' };
  if (rel.startsWith('sidecar/test/')) {
    if (!isTestFile(rel)) return { kind: 'support' };
    const parts = rel.slice('sidecar/test/'.length).split('/');
    return { kind: 'sidecar-test', layer: parts.length > 1 ? parts[0]! : null };
  }
  if (rel.startsWith('renderer/src/')) return { kind: 'renderer' };
  if (rel.startsWith('renderer/test/'))
    return isTestFile(rel) ? { kind: 'renderer-test' } : { kind: 'support' };
  if (rel.startsWith('renderer/e2e/') || rel.startsWith('renderer/test-node/')) {
    return isTestFile(rel) ? { kind: 'renderer-live-test' } : { kind: 'support' };
  }
  if (rel.startsWith('electron/src/')) return { kind: 'electron' };
  if (rel.startsWith('electron/test/'))
    return isTestFile(rel) ? { kind: 'electron-test' } : { kind: 'support' };
  if (rel.startsWith('scripts/')) return { kind: 'scripts' };
  return null;
}

const inTree = (target: string, tree: string) => target === tree || target.startsWith(`${tree}/`);
const isTestTree = (target: string) =>
  [
    'sidecar/test',
    'renderer/test',
    'renderer/e2e',
    'renderer/test-node',
    'electron/test',
    'scripts/test',
  ].some((tree) => inTree(target, tree));

/**
 * What is wrong with one import of one file (paths relative to the repository, `/`-separated), or null.
 * `target` is the resolved relative import, or null for a package. `typeOnly`: an `import type`.
 */
export function importViolation(rel: string, spec: string, typeOnly = false): string | null {
  const zone = zoneOf(rel);
  if (!zone) return null;
  const relative = spec.startsWith('.');
  const target = relative
    ? path.posix
        .normalize(path.posix.join(path.posix.dirname(rel), spec))
        .replace(/\.(ts|tsx|mts|mjs|js)$/, '')
    : null;
  const targetLayer = target ? sidecarLayerOf(target) : null;
  const where = `${rel} imports ${spec}`;

  switch (zone.kind) {
    case 'sidecar': {
      if (!target) {
        const packages = PACKAGES[zone.layer];
        if (!packages || isPackageIn(spec, packages)) return null;
        return `${where}: ${zone.layer} may use no package but ${packages.join(', ')}`;
      }
      if (!inTree(target, 'sidecar/src')) return `${where}: a sidecar layer reaches outside sidecar/src`;
      const allowed = LAYERS[zone.layer];
      if (!allowed) return `${rel}: unknown sidecar folder "${zone.layer}" (add it to the layer table)`;
      if (targetLayer === zone.layer) return null;
      if (allowed.includes(targetLayer!) || leavesOf(zone.layer).includes(targetLayer!)) return null;
      if (TYPE_ONLY[zone.layer]?.includes(targetLayer!)) {
        return typeOnly ? null : `${where}: ${zone.layer} may use ${targetLayer} through import type only`;
      }
      return `${where}: ${zone.layer} may not use ${targetLayer}`;
    }
    case 'sidecar-bin': {
      if (!target) {
        return isPackageIn(spec, BIN_PACKAGES)
          ? null
          : `${where}: the launcher loads tsx and the program only`;
      }
      return target === BIN_TARGET ? null : `${where}: the launcher starts sidecar/src/main.ts only`;
    }
    case 'sidecar-test': {
      if (!target || !inTree(target, 'sidecar/src')) return null;
      if (zone.layer === null || !LAYERS[zone.layer]) {
        return `${where}: tests outside a layer's test folder use test support only`;
      }
      if (reachable(zone.layer).has(targetLayer!)) return null;
      return `${where}: a test of ${zone.layer} may not use ${targetLayer} (above it)`;
    }
    case 'renderer': {
      if (!target) {
        if (isBuiltin(spec) || isPackageIn(spec, SIDECAR_ONLY_PACKAGES)) {
          return `${where}: a Node-only or sidecar-only package in the renderer`;
        }
        return null;
      }
      if (inTree(target, 'renderer')) return null;
      if (inTree(target, 'sidecar/src/protocol') || inTree(target, 'sidecar/src/client')) return null;
      return `${where}: the renderer uses only its own code, the sidecar's client and protocol`;
    }
    case 'renderer-test': {
      // The app's version is read from package.json, as the build does.
      if (!target || inTree(target, 'renderer') || isTestTree(target) || target === 'package.json')
        return null;
      if (inTree(target, 'sidecar/src/protocol') || inTree(target, 'sidecar/src/client')) return null;
      return `${where}: a renderer test uses the renderer, the client, the protocol and test support`;
    }
    case 'renderer-live-test': {
      // These run the UI or its client against a real sidecar: its front door and what is below it, and the client.
      if (!target || inTree(target, 'renderer') || isTestTree(target)) return null;
      if (targetLayer && (reachable('server').has(targetLayer) || targetLayer === 'client')) return null;
      return `${where}: a live renderer test may use the sidecar's server and below, nothing else`;
    }
    case 'electron': {
      if (!target) {
        return isPackageIn(spec, AGENT_PACKAGES)
          ? `${where}: the desktop host knows nothing of agents`
          : null;
      }
      if (inTree(target, 'electron')) return null;
      if (ELECTRON_MAY_USE.some((allowed) => inTree(target, allowed))) return null;
      return `${where}: the desktop host may use only the protocol and the shared leaves of the sidecar`;
    }
    case 'electron-test': {
      if (!target || inTree(target, 'electron') || isTestTree(target)) return null;
      if (ELECTRON_MAY_USE.some((allowed) => inTree(target, allowed))) return null;
      return `${where}: a desktop-host test uses the host, what it may use, and test support`;
    }
    case 'scripts': {
      // Developer tools build and measure the sidecar (any layer) and drive the UI through test support.
      if (!target) return null;
      if (inTree(target, 'renderer/src') || inTree(target, 'electron/src')) {
        return `${where}: scripts build the renderer and the host, they do not import them`;
      }
      if (isTestFile(target)) return `${where}: scripts do not import test files`;
      return null;
    }
    case 'support':
      return null;
  }
}

/** Zones that ship: a module loaded there must be named in the text, or these rules cannot check it. */
const SHIPPED = new Set<Zone['kind']>(['sidecar', 'sidecar-bin', 'renderer', 'electron']);

/**
 * Loads in shipped files whose module is the user's, not Cairn's, so it can only be named at run time:
 * LoadTool's JavaScript core imports the project's tool module. Each entry is one file and its loads exactly
 * as written; any other load in that file is still refused.
 */
export const PROJECT_CODE_LOADS: Record<string, readonly string[]> = {
  'sidecar/src/tools/runtime/assets/tool-worker-core.mjs': ['import(module)'],
};

/**
 * What is wrong with a load whose module is chosen at run time (`import(`./${x}`)`, `require(name)`), or
 * null. Tests and scripts may: they write programs for child processes as strings and load what they build.
 */
export function unreadableLoadViolation(rel: string, load: string): string | null {
  const zone = zoneOf(rel);
  if (!zone || !SHIPPED.has(zone.kind)) return null;
  if (PROJECT_CODE_LOADS[rel]?.includes(load)) return null;
  return `${rel} loads ${load}: a module named at run time escapes these rules (name it with a string)`;
}
