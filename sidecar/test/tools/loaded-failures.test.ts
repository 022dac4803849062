import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger';
import type { LoadedTool } from '../../src/protocol';
import { childEnv } from '../../src/tools/child-env';
import { ToolLoader } from '../../src/tools/runtime/loaded/tool-loader';
import { nodeForWorkers } from '../../src/tools/runtime/loaded/worker-command';
import { call, isProcessGone, streamed, TestProject, waitFor } from './loaded-tools-support';

let project: TestProject;
beforeAll(async () => {
  project = await TestProject.create();
});
afterEach(async () => {
  await Promise.all(project.handles.splice(0).map((handle) => handle.stop()));
});
afterAll(() => project.dispose());

/** A module whose worker writes its pid to `pid.txt` in the project when it is imported. */
const RECORDS_PID_JS = `import fs from 'node:fs';\nfs.writeFileSync('pid.txt', String(process.pid));\n`;
const RECORDS_PID_PY = `import os\nopen('pid.txt', 'w').write(str(os.getpid()))\n`;

async function recordedPid(): Promise<number> {
  const text = await fs.readFile(path.join(project.root, 'pid.txt'), 'utf8');
  await fs.rm(path.join(project.root, 'pid.txt'));
  return Number(text);
}

const tool = (body: string) => `export const create_tool = (config) => (${body});`;

describe('LoadTool refuses', () => {
  it('a path outside the project, also through a symlink', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-outside-'));
    try {
      await fs.copyFile(path.join(project.root, 'tools', 'counter.mjs'), path.join(outside, 'counter.mjs'));
      const relative = path.relative(project.root, path.join(outside, 'counter.mjs'));
      await expect(project.load({ path: relative })).rejects.toThrow(/is outside the project folder/);
      await expect(project.load({ path: path.join(outside, 'counter.mjs') })).rejects.toThrow(
        /is outside the project folder/,
      );
      await fs.symlink(path.join(outside, 'counter.mjs'), path.join(project.root, 'tools', 'link.mjs'));
      await expect(project.load({ path: 'tools/link.mjs', mode: 'local' })).rejects.toThrow(
        /"tools\/link.mjs" is outside the project folder/,
      );
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('a missing file, a folder, another kind of file, a bad factory name', async () => {
    await expect(project.load({ path: 'tools/nope.mjs' })).rejects.toThrow(
      '"tools/nope.mjs" does not exist.',
    );
    await expect(project.load({ path: 'tools' })).rejects.toThrow('"tools" is a folder, not a file');
    await project.write('notes.txt', 'hello');
    await expect(project.load({ path: 'notes.txt' })).rejects.toThrow(
      'notes.txt is not a tool module: LoadTool loads JavaScript (.js, .mjs, .cjs), TypeScript (.ts, .mts) or Python (.py).',
    );
    await expect(project.load({ path: 'tools/counter.mjs', factory: 'a-b' })).rejects.toThrow(
      '"a-b" is not a function name',
    );
  });

  it.each(['process', 'local'] as const)('modules that cannot make a tool (%s)', async (mode) => {
    const cases: [string, string, RegExp][] = [
      // In the sidecar under test, vitest's module runner parses the file: the error is its own.
      [
        'syntax.mjs',
        'export const = 1;',
        /^Could not load the tool from tools\/syntax\.mjs: .*(SyntaxError|Parse failure)/,
      ],
      [
        'nofactory.mjs',
        'export const other = 1;',
        /the module has no export "create_tool" \(the function that returns the tool\); it exports: other/,
      ],
      [
        'throws.mjs',
        'export function create_tool() { throw new Error("bad config"); }',
        /create_tool\(config\) threw: Error: bad config/,
      ],
      [
        'array.mjs',
        tool('[]'),
        /create_tool\(config\) must return an object \{ name, description, methods \}/,
      ],
      [
        'invalid.mjs',
        tool(
          `{ name: 'bad name!', methods: { 'go on': { kind: 'later', run() {} }, ok: { kind: 'batch' } } }`,
        ),
        new RegExp(
          '^The tool in tools/invalid\\.mjs cannot be used: its name "bad name!" must be 1-64 letters, ' +
            'digits, "_" or "-"; the method "go on" needs a name of 1-64 letters, digits, "_" or "-"; the ' +
            'method "go on" has kind "later"; it must be "batch" or "stream"; the method "ok" has no "run" ' +
            "function\\. create_tool\\(config\\) must return \\{ name, description, methods: \\{ <method>: \\{ kind: 'batch' \\| 'stream'",
        ),
      ],
      ['nomethods.mjs', tool(`{ name: 'empty', methods: {} }`), /cannot be used: it has no methods\./],
      [
        'noname.mjs',
        tool(`{ methods: { a: { kind: 'batch', run() {} } } }`),
        /cannot be used: it has no "name"\./,
      ],
    ];
    for (const [file, source, message] of cases) {
      await project.write(`tools/${file}`, source);
      await expect(project.load({ path: `tools/${file}`, mode }), file).rejects.toThrow(message);
    }
  });

  it('Python modules that cannot make a tool, leaving no worker', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'imports.py',
        'import no_such_module_here',
        /importing imports\.py failed:\n[\s\S]*ModuleNotFoundError/,
      ],
      [
        'nofactory.py',
        'def other(): pass',
        /the module has no function 'create_tool' .*it defines: os, other/,
      ],
      [
        'raises.py',
        'def create_tool(config):\n    raise KeyError("x")',
        /create_tool\(config\) raised:[\s\S]*KeyError/,
      ],
      ['listy.py', 'def create_tool(config):\n    return []', /must return a dict .* it returned list/],
      [
        'kinds.py',
        'def create_tool(config):\n    return {"name": "k", "methods": {"m": {"kind": "soon", "run": print}}}',
        /the method "m" has kind "soon"; it must be "batch" or "stream"\. create_tool\(config\) must return \{"name"/,
      ],
    ];
    for (const [file, source, message] of cases) {
      await project.write(`tools/${file}`, `${RECORDS_PID_PY}${source}\n`);
      await expect(project.load({ path: `tools/${file}` }), file).rejects.toThrow(message);
      const pid = await recordedPid();
      await waitFor(() => isProcessGone(pid));
    }
  });

  it('a name that is taken, stopping the worker it started', async () => {
    await project.write(
      'tools/taken.mjs',
      `${RECORDS_PID_JS}${tool(`{ name: 'counter', methods: { a: { kind: 'batch', run() {} } } }`)}`,
    );
    await expect(
      project.loader.load({ path: 'tools/taken.mjs' }, project.loadContext(), (name) => name === 'counter'),
    ).rejects.toThrow('A tool named "counter" is already available in this session.');
    const pid = await recordedPid();
    await waitFor(() => isProcessGone(pid));
  });

  it('a worker that dies while loading', async () => {
    await project.write('tools/dies.mjs', 'console.error("cannot go on"); process.exit(5);');
    await expect(project.load({ path: 'tools/dies.mjs' })).rejects.toThrow(
      /^Could not load the tool from tools\/dies\.mjs: its worker process \(pid \d+\) exited with code 5 while loading\. Its last output:\ncannot go on$/,
    );
  });

  it('a load that is cancelled or takes too long, stopping its worker', async () => {
    await project.write(
      'tools/slow.mjs',
      `${RECORDS_PID_JS}export const create_tool = () => new Promise(() => {});`,
    );
    const controller = new AbortController();
    const loading = project.loader.load(
      { path: 'tools/slow.mjs' },
      project.loadContext(controller.signal),
      () => false,
    );
    await waitFor(async () =>
      fs.access(path.join(project.root, 'pid.txt')).then(
        () => true,
        () => false,
      ),
    );
    controller.abort();
    await expect(loading).rejects.toThrow('Loading tools/slow.mjs was cancelled.');
    const pid = await recordedPid();
    await waitFor(() => isProcessGone(pid));

    const impatient = new ToolLoader({ ...loaderOptions(), loadTimeoutMs: 50 });
    await expect(project.load({ path: 'tools/slow.mjs' }, impatient)).rejects.toThrow(
      'Loading tools/slow.mjs did not finish in 0.05 s',
    );
    // The worker may have been stopped before it imported the module (and wrote its pid).
    const late = await recordedPid().catch(() => null);
    if (late !== null) await waitFor(() => isProcessGone(late));
  });

  it('a Python tool when there is no Python, and a TypeScript tool importing a file beside it', async () => {
    const noPython = new ToolLoader({
      ...loaderOptions(),
      python: () => Promise.reject(new Error('No usable Python was found.')),
    });
    await expect(project.load({ path: 'tools/counter_tool.py' }, noPython)).rejects.toThrow(
      'tools/counter_tool.py needs Python: No usable Python was found.',
    );
    await project.write('tools/helper.ts', 'export const x: number = 1;');
    await project.write(
      'tools/uses.ts',
      `import { x } from './helper.ts';\n${tool(`{ name: 'u' + x, methods: {} }`)}`,
    );
    await expect(project.load({ path: 'tools/uses.ts' })).rejects.toThrow(
      /cannot import other files of the project/,
    );
    await project.write('tools/broken.ts', 'export const = ;');
    await expect(project.load({ path: 'tools/broken.ts' })).rejects.toThrow(
      /^tools\/broken\.ts could not be compiled/,
    );
  });
});

describe('a JavaScript worker that crashes', () => {
  it('fails its running calls and every later one, tells listeners, and is not restarted', async () => {
    await project.write(
      'tools/crashy.mjs',
      tool(`{ name: 'crashy', methods: {
        crash: { kind: 'batch', run() { console.error('about to crash'); setTimeout(() => process.exit(3), 10); return new Promise(() => {}); } },
        wait: { kind: 'stream', async *run(args, ctx) { yield 'waiting'; await new Promise(() => {}); } },
      } }`),
    );
    const handle = await project.load({ path: 'tools/crashy.mjs' });
    const changes: LoadedTool[] = [];
    handle.onChange((info) => changes.push(info));
    const pid = handle.info().pid!;
    const streaming = project.ctx();
    const waiting = call(handle, { method: 'wait', arguments: {} }, streaming);
    await streamed(streaming, 1);
    const expected =
      `The loaded tool "crashy" crashed: its worker process (pid ${pid}) exited with code 3.\n` +
      'Its last output:\nabout to crash\nIt is not restarted: load it again with LoadTool (path "tools/crashy.mjs") to use it.';
    await expect(call(handle, { method: 'crash', arguments: {} }, project.ctx())).rejects.toThrow(expected);
    await expect(waiting).rejects.toThrow(expected);
    await waitFor(() => changes.length > 0);
    expect(changes).toEqual([
      expect.objectContaining({ name: 'crashy', state: 'crashed', error: expected, pid }),
    ]);
    expect(handle.info()).toMatchObject({ state: 'crashed', error: expected, pid });
    await expect(call(handle, { method: 'wait', arguments: {} }, project.ctx())).rejects.toThrow(expected);
    expect(isProcessGone(pid)).toBe(true);
  });
});

describe('the Node that runs JavaScript workers', () => {
  it('is this one in plain Node, else a node on PATH, else an error pointing to mode "local"', async () => {
    expect(nodeForWorkers({}, { execPath: '/x/node', electron: undefined, platform: 'linux' })).toBe(
      '/x/node',
    );
    const electron = { execPath: '/x/Cairn', electron: '41.0.0', platform: 'linux' as const };
    expect(() => nodeForWorkers({ PATH: '/nowhere' }, electron)).toThrow(/load the tool with mode "local"/);
    const bin = path.join(project.root, 'bin');
    await project.write('bin/node', '');
    expect(nodeForWorkers({ PATH: `/nowhere${path.delimiter}${bin}` }, electron)).toBe(
      path.join(bin, 'node'),
    );
  });
});

function loaderOptions() {
  return {
    python: async () => ({ command: 'python3', args: [] }),
    env: () => childEnv(),
    scratchDir: project.scratch,
    logger: silentLogger,
  };
}
