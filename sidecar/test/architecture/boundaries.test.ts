// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` in plain strings is planted source text, the data under test.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, scanImports } from './import-scanner';
import {
  importViolation,
  LAYERS,
  reachable,
  TYPE_ONLY,
  unreadableLoadViolation,
  zoneOf,
} from './layer-rules';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every tree the rules cover; this folder holds planted violations as data and is left out. */
const TREES = ['sidecar/src', 'sidecar/bin', 'sidecar/test', 'renderer', 'electron', 'scripts'];
const SKIP = ['node_modules', 'dist', 'sidecar/test/architecture'];

function codeFiles(): string[] {
  const files: string[] = [];
  for (const tree of TREES) {
    for (const entry of fs.readdirSync(path.join(ROOT, tree), { recursive: true, encoding: 'utf8' })) {
      const rel = `${tree}/${entry.split(path.sep).join('/')}`;
      if (SKIP.some((skip) => rel.includes(`${skip}/`) || rel.startsWith(`${skip}/`))) continue;
      if (/\.(ts|tsx|mts|mjs|js|cjs)$/.test(rel)) files.push(rel);
    }
  }
  return files;
}

function violations(rel: string, source: string): string[] {
  const { refs, unreadable } = scanImports(source);
  return [
    ...refs.flatMap((ref) => importViolation(rel, ref.spec, ref.typeOnly) ?? []),
    ...unreadable.flatMap((load) => unreadableLoadViolation(rel, load) ?? []),
  ];
}

describe('architecture', () => {
  it('every file of every tree imports only what its layer may use', () => {
    const files = codeFiles();
    expect(files.length).toBeGreaterThan(400);
    const found = files.flatMap((rel) => violations(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every folder of sidecar/src is a layer of the table', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'sidecar/src'), { withFileTypes: true })
      .map((e) => e.name.replace(/\.ts$/, ''));
    expect(folders.filter((name) => !LAYERS[name])).toEqual([]);
  });

  it('the table is the one DESIGN.md draws: each layer reaches only what is below it', () => {
    expect(LAYERS.server).toEqual(['application', 'protocol']);
    expect(LAYERS.cli).toEqual(['application', 'client', 'protocol']);
    // The public client is the wire shapes and nothing of the sidecar: scripts and browsers load it alone.
    expect([...reachable('client')].sort()).toEqual(['client', 'protocol']);
    expect(reachable('agent').has('application')).toBe(false);
    expect(reachable('store').has('tools')).toBe(false);
    expect([...reachable('protocol')]).toEqual(['protocol']);
    expect(LAYERS.context).not.toContain('tools');
    expect(TYPE_ONLY).toEqual({ context: ['tools'] });
    for (const layer of Object.keys(LAYERS)) {
      if (layer !== 'main') expect(reachable(layer).has('main'), layer).toBe(false);
    }
  });

  it('all SQL lives in store/', () => {
    const offenders = codeFiles()
      .filter((rel) => rel.startsWith('sidecar/src/') && !rel.startsWith('sidecar/src/store/'))
      .filter((rel) =>
        /\.(prepare|exec)\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|CREATE)/i.test(
          fs.readFileSync(path.join(ROOT, rel), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});

describe('the checker catches a planted violation of each kind', () => {
  const planted: [string, string, string, RegExp][] = [
    [
      'a layer importing upwards',
      'sidecar/src/store/x.ts',
      "import { A } from '../agent/agent-runtime';",
      /store may not use agent/,
    ],
    [
      'the loop reaching a use-case service',
      'sidecar/src/agent/x.ts',
      "import type { S } from '../application/part';",
      /agent may not use application/,
    ],
    [
      'a route reaching below the application',
      'sidecar/src/server/routes/x.ts',
      "import { Store } from '../../store/store';",
      /server may not use store/,
    ],
    [
      'a command reaching the server',
      'sidecar/src/cli/x.ts',
      "export { startServer } from '../server/start-server';",
      /cli may not use server/,
    ],
    [
      'context using the loop',
      'sidecar/src/context/x.ts',
      "const m = await import('../agent/turn-runner');",
      /context may not use agent/,
    ],
    [
      'kernels using tools through require',
      'sidecar/src/kernels/x.ts',
      "const t = require('../tools/tool');",
      /kernels may not use tools/,
    ],
    ['a leaf using a layer', 'sidecar/src/log/x.ts', "import '../store/store';", /log may not use store/],
    [
      'an unknown sidecar folder',
      'sidecar/src/extras/x.ts',
      "import { z } from '../protocol';",
      /unknown sidecar folder/,
    ],
    [
      'a test importing above its layer',
      'sidecar/test/tools/x.test.ts',
      "import { AgentRuntime } from '../../src/agent/agent-runtime';",
      /a test of tools may not use agent/,
    ],
    [
      'a loose test importing the sidecar',
      'sidecar/test/x.test.ts',
      "import { Store } from '../src/store/store';",
      /test support only/,
    ],
    [
      'the renderer importing a sidecar internal',
      'renderer/src/x.ts',
      "import { Store } from '../../sidecar/src/store/store';",
      /only its own code, the sidecar's client and protocol/,
    ],
    [
      'the renderer importing a Node module',
      'renderer/src/x.ts',
      "import fs from 'node:fs';",
      /Node-only or sidecar-only/,
    ],
    [
      'the renderer importing a sidecar package',
      'renderer/src/api/x.ts',
      "const W = require('ws');",
      /Node-only or sidecar-only/,
    ],
    [
      'the renderer importing the model SDK lazily',
      'renderer/src/x.ts',
      "await import('@anthropic-ai/sdk');",
      /Node-only or sidecar-only/,
    ],
    [
      'the renderer importing keytar',
      'renderer/src/x.ts',
      "import k from 'keytar';",
      /Node-only or sidecar-only/,
    ],
    [
      'a renderer test importing a sidecar internal',
      'renderer/test/x.test.ts',
      "import { A } from '../../sidecar/src/agent/agent-runtime';",
      /renderer test uses/,
    ],
    [
      'a live renderer test importing the command line',
      'renderer/e2e/x.test.ts',
      "import { main } from '../../sidecar/src/cli/main';",
      /server and below/,
    ],
    [
      'the desktop host importing the agent',
      'electron/src/x.ts',
      "import { A } from '../../sidecar/src/agent/agent-runtime';",
      /only the protocol and the shared leaves/,
    ],
    [
      'the desktop host importing an agent package',
      'electron/src/x.ts',
      "import Anthropic from '@anthropic-ai/sdk';",
      /knows nothing of agents/,
    ],
    [
      'a desktop-host test importing the sidecar',
      'electron/test/x.test.ts',
      "import { c } from '../../sidecar/src/cli/serve-command';",
      /desktop-host test uses/,
    ],
    [
      'protocol using a leaf',
      'sidecar/src/protocol/x.ts',
      "import { log } from '../log/logger';",
      /protocol may not use log/,
    ],
    [
      'protocol using a Node module',
      'sidecar/src/protocol/x.ts',
      "import fs from 'node:fs';",
      /protocol may use no package but zod/,
    ],
    [
      'protocol using another package',
      'sidecar/src/protocol/x.ts',
      "export { nanoid } from 'nanoid';",
      /protocol may use no package but zod/,
    ],
    [
      'context running a tool',
      'sidecar/src/context/x.ts',
      "import { ToolRegistry } from '../tools/tool-registry';",
      /context may use tools through import type only/,
    ],
    [
      'context loading tools for an inline type',
      'sidecar/src/context/x.ts',
      "import { type ToolSource } from '../tools/tool-source';",
      /context may use tools through import type only/,
    ],
    [
      'context loading tools lazily',
      'sidecar/src/context/x.ts',
      "const t = await import('../tools/tool-source');",
      /context may use tools through import type only/,
    ],
    [
      'a layer importing upwards through a template',
      'sidecar/src/store/x.ts',
      'const a = await import(`../agent/agent-runtime.js`);',
      /store may not use agent/,
    ],
    [
      'a module chosen at run time by a template',
      'sidecar/src/tools/x.ts',
      'const t = await import(`./builtin/${name}.js`);',
      /named at run time/,
    ],
    [
      'a module chosen at run time by a variable',
      'sidecar/src/kernels/x.ts',
      'const t = require(name);',
      /named at run time/,
    ],
    [
      'another module chosen at run time in the file that loads tool modules',
      'sidecar/src/tools/runtime/assets/tool-worker-core.mjs',
      'const t = await import(module);\nconst u = await import(other);',
      /loads import\(other\): a module named at run time/,
    ],
    [
      'a module chosen at run time in the renderer',
      'renderer/src/x.ts',
      'const screen = await import(/* @vite-ignore */ url);',
      /named at run time/,
    ],
    [
      'kernels using tools through a made require',
      'sidecar/src/kernels/x.ts',
      "const load = createRequire(import.meta.url);\nconst t = load('../tools/tool');",
      /kernels may not use tools/,
    ],
    [
      'the renderer loading a sidecar package through a made require',
      'renderer/src/x.ts',
      "const W = createRequire(import.meta.url)('ws');",
      /Node-only or sidecar-only/,
    ],
    [
      'a made require resolving from another base',
      'sidecar/src/kernels/x.ts',
      "const t = createRequire(base)('./driver');",
      /relative to base, not this file/,
    ],
    [
      'a made require handed on',
      'electron/src/x.ts',
      'export const load = () => createRequire(import.meta.url);',
      /named at run time/,
    ],
    [
      'the launcher reaching past the program',
      'sidecar/bin/x.mjs',
      "const { startServer } = await import('../src/server/start-server.ts');",
      /starts sidecar\/src\/main.ts only/,
    ],
    [
      'the launcher loading another package',
      'sidecar/bin/x.mjs',
      "import fs from 'node:fs';",
      /loads tsx and the program only/,
    ],
    [
      'a script importing the renderer',
      'scripts/x.mjs',
      "import { App } from '../renderer/src/components/App';",
      /do not import them/,
    ],
  ];

  for (const [kind, rel, source, message] of planted) {
    it(kind, () => {
      const found = violations(rel, source);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(message);
    });
  }

  it('allowed imports pass', () => {
    expect(violations('sidecar/src/application/x.ts', "import { A } from '../agent/agent-runtime';")).toEqual(
      [],
    );
    expect(violations('sidecar/src/main.ts', "import { main } from './cli/main';")).toEqual([]);
    expect(violations('sidecar/test/server/x.test.ts', "import { S } from '../../src/store/store';")).toEqual(
      [],
    );
    expect(violations('renderer/src/x.ts', "import { Turn } from '../../sidecar/src/protocol';")).toEqual([]);
    expect(
      violations('electron/src/x.ts', "import { k } from '../../sidecar/src/secrets/keytar-store';"),
    ).toEqual([]);
    expect(
      violations('sidecar/src/protocol/x.ts', "import { z } from 'zod';\nimport { E } from './errors';"),
    ).toEqual([]);
    expect(
      violations(
        'sidecar/src/context/x.ts',
        "import type { T } from '../tools/tool-source';\nexport type { U } from '../tools/tool';",
      ),
    ).toEqual([]);
    expect(
      violations(
        'sidecar/bin/cairn.mjs',
        "import { register } from 'tsx/esm/api';\nconst { main } = await import('../src/main.ts');",
      ),
    ).toEqual([]);
    // LoadTool imports the project's module, which only the user names.
    expect(
      violations('sidecar/src/tools/runtime/assets/tool-worker-core.mjs', 'const e = await import(module);'),
    ).toEqual([]);
    // Tests write programs for child processes as strings; what those load is theirs to choose.
    expect(violations('sidecar/test/store/x.test.ts', 'await import(`${lockModule}`);')).toEqual([]);
  });

  it('reads every form of import', () => {
    const source = [
      "import a from './a';",
      "import type { B } from './b';",
      "export * from './c';",
      "export { d } from './d';",
      "import './e';",
      "const f = await import('./f');",
      "const g = require('./g');",
      "import h = require('./h');",
      'import {\n  i,\n  j,\n} from "./ij";',
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a', './b', './c', './d', './e', './f', './g', './h', './ij']);
    const loads = [
      'const k = await import(`./k`);',
      "const l = require(`./l`), m = await import(/* @vite-ignore */ './m');",
      "const n = createRequire(import.meta.url)('./n');",
      "const load = createRequire(import.meta.url);\nload('./o');",
      "import { createRequire as make } from 'node:module';\nconst p = make(__filename)('./p');",
      "const q = createRequire(import.meta.url).resolve('./q');",
    ].join('\n');
    expect(importsOf(loads)).toEqual(['./k', './l', './m', './n', './o', 'node:module', './p']);
    expect(scanImports(loads).unreadable).toEqual([]);
    expect(scanImports('import(`./${a}`); require(b); createRequire(c)(`./${d}`);').unreadable).toEqual([
      'import(`./${a}`)',
      'require(b)',
      'createRequire(c)(`./${d}`)',
    ]);
    const typeOnly = (text: string) => scanImports(text).refs.map((ref) => ref.typeOnly);
    expect(
      typeOnly("import type { A } from './a';\nexport type * from './b';\nimport type C from './c';"),
    ).toEqual([true, true, true]);
    expect(
      typeOnly("import { type A } from './a';\nimport type, { B } from './b';\nimport type from './c';"),
    ).toEqual([false, false, false]);
    expect(zoneOf('sidecar/test/support/harness.ts')).toEqual({ kind: 'support' });
  });
});
