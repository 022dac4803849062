import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Layers of the sidecar: a folder may import only the folders listed for it (and itself). */
const SIDECAR_ALLOWED: Record<string, string[]> = {
  protocol: [],
  errors: [],
  config: [],
  // Process groups and trees: what the shell tools, kernels and MCP servers all stop their children with.
  process: [],
  secrets: ['errors'],
  log: ['secrets'],
  store: ['protocol', 'errors', 'config'],
  context: ['store', 'protocol', 'errors'],
  kernels: ['process', 'errors', 'config', 'log'],
  // The kernel tools use the kernels' types and default name; the agent gives them a session's kernels.
  tools: ['process', 'kernels', 'store', 'protocol', 'errors', 'secrets', 'log', 'config'],
  // MCP connections and config import; resolve-server reads the stored config's types from store/.
  mcp: ['process', 'store', 'protocol', 'errors', 'config', 'log', 'secrets'],
  agent: [
    'process',
    'context',
    'tools',
    'kernels',
    'mcp',
    'store',
    'protocol',
    'errors',
    'secrets',
    'log',
    'config',
  ],
  server: ['process', 'agent', 'kernels', 'mcp', 'store', 'protocol', 'errors', 'secrets', 'log', 'config'],
  cli: [
    'process',
    'server',
    'agent',
    'kernels',
    'mcp',
    'store',
    'protocol',
    'errors',
    'secrets',
    'log',
    'config',
  ],
};

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mts)$/.test(f))
    .map((f) => path.join(dir, f));
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const match of source.matchAll(pattern)) specifiers.push(match[1] ?? match[2] ?? match[3]!);
  return specifiers;
}

function layerOf(file: string): string {
  const rel = path.relative(path.join(ROOT, 'sidecar/src'), file);
  const first = rel.split(path.sep)[0]!;
  return first.replace(/\.ts$/, '');
}

describe('architecture', () => {
  it('sidecar layers import only downwards (server → agent → context/tools → store)', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'sidecar/src'))) {
      const from = layerOf(file);
      const allowed = SIDECAR_ALLOWED[from];
      expect(allowed, `unknown sidecar folder ${from}: add it to the layer map`).toBeDefined();
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        if (!target.startsWith(path.join(ROOT, 'sidecar/src'))) {
          violations.push(`${path.relative(ROOT, file)} reaches outside the sidecar: ${spec}`);
          continue;
        }
        const to = layerOf(target);
        if (to !== from && !allowed!.includes(to))
          violations.push(`${path.relative(ROOT, file)} (${from}) imports ${to}: ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the renderer imports nothing of the sidecar but its protocol', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'renderer/src'))) {
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) {
          if (/^(node:|fs$|child_process|better-sqlite3|fastify)/.test(spec))
            violations.push(`${file}: ${spec}`);
          continue;
        }
        const target = path.resolve(path.dirname(file), spec);
        const inRenderer = target.startsWith(path.join(ROOT, 'renderer'));
        const inProtocol = target.startsWith(path.join(ROOT, 'sidecar/src/protocol'));
        if (!inRenderer && !inProtocol) violations.push(`${path.relative(ROOT, file)} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('electron knows nothing of agents', () => {
    // The protocol's shapes, and the one process-level platform fact both processes apply.
    const allowed = [
      path.join(ROOT, 'sidecar/src/protocol'),
      path.join(ROOT, 'sidecar/src/config/system-ca'),
    ];
    const violations: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'electron/src'))) {
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : '';
        if (target.startsWith(path.join(ROOT, 'sidecar/src')) && !allowed.some((a) => target.startsWith(a))) {
          violations.push(`${path.relative(ROOT, file)} imports ${spec}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('the checker itself catches a forbidden import', () => {
    expect(importsOf("import { AgentRuntime } from '../agent/agent-runtime';")).toEqual([
      '../agent/agent-runtime',
    ]);
    expect(importsOf("const m = await import('../../sidecar/src/store/store');")).toEqual([
      '../../sidecar/src/store/store',
    ]);
    expect(importsOf("export * from './x';\nimport './side-effect';")).toEqual(['./x', './side-effect']);
  });

  it('all SQL lives in store/', () => {
    const offenders = sourceFiles(path.join(ROOT, 'sidecar/src'))
      .filter((f) => layerOf(f) !== 'store')
      .filter((f) =>
        /\.(prepare|exec)\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|CREATE)/i.test(fs.readFileSync(f, 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
