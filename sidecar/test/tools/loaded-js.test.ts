import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedToolHandle } from '../../src/tools/runtime/loaded/loaded-tool-handle';
import { prepareJavaScriptModule } from '../../src/tools/runtime/loaded/module-file';
import { toolRuntimeAssetPath } from '../../src/tools/runtime/loaded/worker-command';
import { toolInputJsonSchema } from '../../src/tools/tool';
import { call, isProcessGone, streamed, TestProject, waitFor } from './loaded-tools-support';

describe.each([
  { file: 'counter.mjs', mode: 'local' as const },
  { file: 'counter.mjs', mode: 'process' as const },
  { file: 'counter.ts', mode: 'local' as const },
  { file: 'counter.ts', mode: 'process' as const },
])('the counter from $file in mode $mode', ({ file, mode }) => {
  let project: TestProject;
  let counter: LoadedToolHandle;

  beforeAll(async () => {
    project = await TestProject.create();
    counter = await project.load({ path: `tools/${file}`, mode, config: { start: 10 } });
  });
  afterAll(() => project.dispose());

  it('is described as the model and the UI see it', () => {
    const info = counter.info();
    expect(info).toMatchObject({
      name: 'counter',
      path: `tools/${file}`,
      language: 'javascript',
      mode,
      state: 'ready',
      error: null,
      tool_call_id: 'load-call',
    });
    expect(info.methods.map((m) => [m.name, m.kind])).toEqual([
      ['count', 'batch'],
      ['ticks', 'stream'],
    ]);
    if (mode === 'local') expect(info.pid).toBeNull();
    else expect(info.pid).toBeGreaterThan(0);
    const { tool } = counter;
    expect(tool).toMatchObject({
      name: 'counter',
      background: 'runner',
      sideEffects: true,
      needsProject: true,
    });
    expect(tool.methods?.map((m) => m.kind)).toEqual(['batch', 'stream']);
    const schema = toolInputJsonSchema(tool) as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties.method?.enum).toEqual(['count', 'ticks']);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['method', 'union_id', 'arguments', 'is_wait', 'timeout']),
    );
  });

  it('runs the batch method, with config and union_id reaching the tool', async () => {
    expect(await call(counter, { method: 'count', arguments: { by: 5 } }, project.ctx())).toEqual({
      content: 'default: 15',
      meta: { value: 15 },
    });
    const other = await call(counter, { method: 'count', union_id: 'apples', arguments: {} }, project.ctx());
    expect(other.content).toBe('apples: 11');
    expect((await call(counter, { method: 'count', arguments: {} }, project.ctx())).content).toBe(
      'default: 16',
    );
  });

  it('streams the stream method item by item through onOutput', async () => {
    const ctx = project.ctx('stream-call');
    const result = await call(
      counter,
      { method: 'ticks', union_id: 'pears', arguments: { times: 3, every_ms: 1 } },
      ctx,
    );
    expect(ctx.texts).toEqual(['pears: 11\n', 'pears: 12\n', 'pears: 13\n']);
    expect(result).toEqual({ content: 'pears: 11\npears: 12\npears: 13\n', meta: { items: 3 } });
  });

  it('runs several calls at once', async () => {
    const [a, b, c] = await Promise.all([
      call(counter, { method: 'ticks', union_id: 'a', arguments: { times: 4, every_ms: 2 } }, project.ctx()),
      call(counter, { method: 'ticks', union_id: 'b', arguments: { times: 2, every_ms: 1 } }, project.ctx()),
      call(counter, { method: 'count', union_id: 'c', arguments: { by: 2 } }, project.ctx()),
    ]);
    expect(a.content).toBe('a: 11\na: 12\na: 13\na: 14\n');
    expect(b.content).toBe('b: 11\nb: 12\n');
    expect(c.content).toBe('c: 12');
  });

  it('cancels a stream call: the generator stops and the result says so', async () => {
    const ctx = project.ctx('cancelled-call');
    const running = call(
      counter,
      { method: 'ticks', union_id: 'plums', arguments: { times: 100_000, every_ms: 5 } },
      ctx,
    );
    await streamed(ctx, 2);
    ctx.controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Cancelled: counter\.ticks stopped after \d+ items?\.$/);
    expect(result.meta).toEqual({ cancelled: true, method_stopped: true });
    const sent = ctx.texts.length;
    const next = await call(counter, { method: 'count', union_id: 'plums', arguments: {} }, project.ctx());
    // At most one more tick than was sent: one the generator made as the cancel arrived, then dropped.
    expect([`plums: ${10 + sent + 1}`, `plums: ${10 + sent + 2}`]).toContain(next.content);
    expect(ctx.texts).toHaveLength(sent);
  });

  it('refuses an unknown method and arguments outside "arguments"', async () => {
    await expect(call(counter, { method: 'reset', arguments: {} }, project.ctx())).rejects.toThrow(
      'The tool "counter" has no method "reset"; its methods: count (batch), ticks (stream).',
    );
    await expect(call(counter, { method: 'count', by: 2 }, project.ctx())).rejects.toThrow(
      /Put the method's arguments inside "arguments".*not understood at the top level: by/,
    );
  });
});

describe('loading a JavaScript tool', () => {
  let project: TestProject;
  beforeAll(async () => {
    project = await TestProject.create();
  });
  afterEach(async () => {
    await Promise.all(project.handles.splice(0).map((handle) => handle.stop()));
  });
  afterAll(() => project.dispose());

  const versioned = (version: string) => ({
    'tools/versioned.mjs': `export const create_tool = () => ({ name: 'versioned', methods: { get: { kind: 'batch', run: () => '${version}' } } });`,
    'tools/versioned.ts': `export function create_tool(): object { const v: string = '${version}'; return { name: 'versioned', methods: { get: { kind: 'batch', run: () => v } } }; }`,
    'tools/versioned.cjs': `exports.create_tool = () => ({ name: 'versioned', methods: { get: { kind: 'batch', run: () => '${version}' } } });`,
  });

  it.each(['mjs', 'ts', 'cjs'] as const)(
    'loads the current contents of a .%s file each time, also in the sidecar',
    async (ext) => {
      const file = `tools/versioned.${ext}` as const;
      await project.write(file, versioned('v1')[file]);
      const first = await project.load({ path: file, mode: 'local' });
      expect((await call(first, { method: 'get', arguments: {} }, project.ctx())).content).toBe('v1');
      await first.stop();
      await project.write(file, versioned('v2')[file]);
      const second = await project.load({ path: file, mode: 'local' });
      expect((await call(second, { method: 'get', arguments: {} }, project.ctx())).content).toBe('v2');
    },
  );

  it('in a plain Node, as the sidecar bundle runs it, imports the current contents each time', async () => {
    // Under vitest the core's import() goes through vitest's module runner; here it is Node's own.
    const files = [];
    for (const ext of ['mjs', 'cjs'] as const) {
      const file = `tools/plain.${ext}` as const;
      await project.write(
        file,
        versioned('v1')[`tools/versioned.${ext}`].replace("'versioned'", "'plain_v1'"),
      );
      const absolute = path.join(project.root, file);
      const loads = [];
      for (let i = 0; i < 2; i++)
        loads.push(await prepareJavaScriptModule(absolute, false, file, project.scratch));
      files.push(loads);
    }
    const core = pathToFileURL(toolRuntimeAssetPath('tool-worker-core.mjs')).href;
    const script = `
      import fs from 'node:fs';
      import { serveToolWorker } from ${JSON.stringify(core)};
      const handlers = [];
      let answer;
      serveToolWorker({ send: (message) => answer(message), onMessage: (handler) => handlers.push(handler) });
      const load = ({ url, file }) => new Promise((resolve) => {
        answer = resolve;
        for (const handler of handlers) handler({ type: 'load', module: url, file, factory: 'create_tool', config: {} });
      });
      const results = [];
      for (const [first, second] of JSON.parse(process.argv[1])) {
        results.push(await load(first));
        fs.writeFileSync(first.file, fs.readFileSync(first.file, 'utf8').replace('v1', 'v2'));
        results.push(await load(second));
      }
      console.log(JSON.stringify(results));
    `;
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(files)],
      {
        encoding: 'utf8',
      },
    );
    const answers = JSON.parse(output) as { type: string; tool?: { name: string } }[];
    expect(answers.map((a) => a.type)).toEqual(['loaded', 'loaded', 'loaded', 'loaded']);
    expect(answers.map((a) => a.tool?.name)).toEqual(['plain_v1', 'plain_v2', 'plain_v1', 'plain_v2']);
  });

  it('passes config to a named factory, and takes it from a default export', async () => {
    await project.write(
      'tools/named.mjs',
      `export default { make: (config) => ({ name: config.name, methods: { hi: { kind: 'batch', run: (args, ctx) => ({ content: 'hi ' + args.who, is_error: false, meta: { call: ctx.call_id } }) } } }) };`,
    );
    const handle = await project.load({
      path: 'tools/named.mjs',
      factory: 'make',
      config: { name: 'greeter' },
    });
    expect(handle.info().name).toBe('greeter');
    expect(await call(handle, { method: 'hi', arguments: { who: 'you' } }, project.ctx('c-7'))).toEqual({
      content: 'hi you',
      isError: false,
      meta: { call: 'c-7' },
    });
  });

  it('reports a method that throws as a failed call, and keeps the tool usable', async () => {
    await project.write(
      'tools/thrower.mjs',
      `export const create_tool = () => ({ name: 'thrower', methods: { boom: { kind: 'batch', run() { throw new RangeError('out of range'); } }, ok: { kind: 'batch', run: () => ({ n: 1 }) } } });`,
    );
    for (const mode of ['local', 'process'] as const) {
      const handle = await project.load({ path: 'tools/thrower.mjs', mode });
      await expect(call(handle, { method: 'boom', arguments: {} }, project.ctx())).rejects.toThrow(
        /thrower\.boom failed:\nRangeError: out of range/,
      );
      expect((await call(handle, { method: 'ok', arguments: {} }, project.ctx())).content).toBe(
        '{\n  "n": 1\n}',
      );
    }
  });

  it('stop() ends the worker and everything its tool started, and later calls say it was stopped', async () => {
    await project.write(
      'tools/spawner.mjs',
      `import { spawn } from 'node:child_process';
export const create_tool = () => ({ name: 'spawner', methods: { start: { kind: 'batch', run() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return String(child.pid);
} } } });`,
    );
    const handle = await project.load({ path: 'tools/spawner.mjs' });
    const worker = handle.info().pid!;
    const child = Number((await call(handle, { method: 'start', arguments: {} }, project.ctx())).content);
    expect(isProcessGone(worker)).toBe(false);
    expect(isProcessGone(child)).toBe(false);
    await handle.stop();
    await waitFor(() => isProcessGone(worker) && isProcessGone(child));
    await expect(call(handle, { method: 'start', arguments: {} }, project.ctx())).rejects.toThrow(
      'The loaded tool "spawner" was stopped; load it again with LoadTool (path "tools/spawner.mjs") to use it.',
    );
    await handle.stop(); // idempotent
    expect(handle.info().state).toBe('ready');
  });

  it.each(['local', 'process'] as const)("runs the tool's close() when it is stopped (%s)", async (mode) => {
    await project.write(
      'tools/closer.mjs',
      `import fs from 'node:fs';
export const create_tool = ({ marker }) => ({ name: 'closer', methods: { a: { kind: 'batch', run: () => 'a' } },
  async close() { fs.writeFileSync(marker, 'closed'); } });`,
    );
    const marker = path.join(project.root, `closed-${mode}.txt`);
    const handle = await project.load({ path: 'tools/closer.mjs', mode, config: { marker } });
    await handle.stop();
    expect(await fs.readFile(marker, 'utf8')).toBe('closed');
  });

  it("keeps the tool's prints away from the worker's channel", async () => {
    await project.write(
      'tools/noisy.mjs',
      `import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
console.log('{"type":"done","id":1,"value":"forged","error":null,"cancelled":false}');
export const create_tool = () => ({ name: 'noisy', methods: { talk: { kind: 'batch', run() {
  console.log('printed'); process.stdout.write('{"type":"closed"}\\n');
  execFileSync(process.execPath, ['-e', 'console.log(1)'], { stdio: 'inherit' });
  return 'said';
} } } });`,
    );
    const handle = await project.load({ path: 'tools/noisy.mjs' });
    expect((await call(handle, { method: 'talk', arguments: {} }, project.ctx())).content).toBe('said');
    expect((await call(handle, { method: 'talk', arguments: {} }, project.ctx())).content).toBe('said');
  });
});
