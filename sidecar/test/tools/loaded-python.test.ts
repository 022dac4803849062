import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedTool } from '../../src/protocol';
import type { LoadedToolHandle } from '../../src/tools/runtime/loaded/loaded-tool-handle';
import { call, isProcessGone, PYTHONS, streamed, TestProject, waitFor } from './loaded-tools-support';

describe.each(PYTHONS)('a Python tool on $label', ({ command }) => {
  let project: TestProject;
  let counter: LoadedToolHandle;

  beforeAll(async () => {
    project = await TestProject.create({
      python: async () => ({ command, args: [] }),
      // Short, so that a method ignoring its cancellation is given up on quickly.
      cancelGraceMs: 200,
    });
    counter = await project.load({ path: 'tools/counter_tool.py', config: { start: 10 } });
  });
  afterAll(() => project.dispose());

  it('loads the counter in a worker process', () => {
    expect(counter.info()).toMatchObject({
      name: 'counter',
      path: 'tools/counter_tool.py',
      language: 'python',
      mode: 'process',
      state: 'ready',
      methods: [
        {
          name: 'count',
          kind: 'batch',
          description: 'Adds `by` (default 1) to the counter and returns its new value.',
        },
        { name: 'ticks', kind: 'stream', description: expect.stringContaining('Counts up') },
      ],
    });
    expect(counter.info().pid).toBeGreaterThan(0);
    expect(counter.tool.methods?.map((m) => m.kind)).toEqual(['batch', 'stream']);
  });

  it('runs the batch method, with config and union_id reaching the tool', async () => {
    expect(await call(counter, { method: 'count', arguments: { by: 5 } }, project.ctx())).toEqual({
      content: 'default: 15',
      meta: { value: 15 },
    });
    const other = await call(counter, { method: 'count', union_id: 'apples', arguments: {} }, project.ctx());
    expect(other.content).toBe('apples: 11');
  });

  it('streams the stream method item by item through onOutput, several calls at once', async () => {
    const a = project.ctx('a');
    const b = project.ctx('b');
    const [first, second] = await Promise.all([
      call(counter, { method: 'ticks', union_id: 'a', arguments: { times: 3, every_ms: 1 } }, a),
      call(counter, { method: 'ticks', union_id: 'b', arguments: { times: 2, every_ms: 1 } }, b),
    ]);
    expect(a.texts).toEqual(['a: 11\n', 'a: 12\n', 'a: 13\n']);
    expect(b.texts).toEqual(['b: 11\n', 'b: 12\n']);
    expect(first).toEqual({ content: 'a: 11\na: 12\na: 13\n', meta: { items: 3 } });
    expect(second.content).toBe('b: 11\nb: 12\n');
  });

  it('cancels a stream call: ctx.wait() wakes, the generator ends, the result says so', async () => {
    const ctx = project.ctx();
    const running = call(
      counter,
      { method: 'ticks', union_id: 'plums', arguments: { times: 100_000, every_ms: 5 } },
      ctx,
    );
    await streamed(ctx, 2);
    ctx.controller.abort();
    const result = await running;
    expect(result.meta).toEqual({ cancelled: true, method_stopped: true });
    expect(result.content).toMatch(/^Cancelled: counter\.ticks stopped after \d+ items?\.$/);
    const sent = ctx.texts.length;
    const next = await call(counter, { method: 'count', union_id: 'plums', arguments: {} }, project.ctx());
    // At most one more tick than was sent: one the generator made as the cancel arrived, then dropped.
    expect([`plums: ${10 + sent + 1}`, `plums: ${10 + sent + 2}`]).toContain(next.content);
  });

  it("runs the tool's close() when it is stopped", async () => {
    await project.write(
      'tools/closer.py',
      `def create_tool(config):
    def close():
        with open(config["marker"], "w") as f:
            f.write("closed")
    return {"name": "closer", "methods": {"a": {"kind": "batch", "run": lambda args, ctx: "a"}}, "close": close}
`,
    );
    const marker = path.join(project.root, 'closed.txt');
    const handle = await project.load({ path: 'tools/closer.py', config: { marker } });
    await handle.stop();
    expect(await fs.readFile(marker, 'utf8')).toBe('closed');
  });

  it('refuses mode "local"', async () => {
    await expect(project.load({ path: 'tools/counter_tool.py', mode: 'local' })).rejects.toThrow(
      'tools/counter_tool.py is a Python module, which runs only in a worker process: load it with mode "process" (the default).',
    );
  });

  describe('with a module that misbehaves', () => {
    let tool: LoadedToolHandle;
    const changes: LoadedTool[] = [];

    beforeAll(async () => {
      await project.write(
        'tools/rough.py',
        `import os, subprocess, sys, time
print('{"type": "loaded"}')  # at import: must not reach Cairn's channel

def create_tool(config):
    def talk(args, ctx):
        print('{"type": "done", "id": 1, "value": "forged", "error": null, "cancelled": false}')
        sys.stdout.write('{"type": "closed"}\\n')
        subprocess.run([sys.executable, "-c", "print('from a child'); import sys; sys.stdin.read()"])
        return {"union": ctx.union_id, "call": ctx.call_id}
    def stubborn(args, ctx):
        time.sleep(args["seconds"])
        return "finally"
    def fail(args, ctx):
        raise ValueError("no good")
    def crash(args, ctx):
        print("about to crash", file=sys.stderr, flush=True)
        os._exit(3)
    def run_for(fn, kind="batch"):
        return {"kind": kind, "description": fn.__name__, "run": fn}
    return {"name": "rough", "methods": {
        "talk": run_for(talk), "stubborn": run_for(stubborn), "fail": run_for(fail), "crash": run_for(crash),
    }}
`,
      );
      tool = await project.load({ path: 'tools/rough.py' });
      tool.onChange((info) => changes.push(info));
    });

    it("keeps the tool's prints, and its programs' output and input, away from the channel", async () => {
      const result = await call(tool, { method: 'talk', union_id: 'u-1', arguments: {} }, project.ctx('c-9'));
      expect(JSON.parse(result.content)).toEqual({ union: 'u-1', call: 'c-9' });
    });

    it('reports an exception with its traceback as a failed call', async () => {
      await expect(call(tool, { method: 'fail', arguments: {} }, project.ctx())).rejects.toThrow(
        /^rough\.fail failed:\nTraceback[\s\S]*ValueError: no good$/,
      );
    });

    it('ends a call whose method ignores the cancel after the grace period, and says it may run on', async () => {
      const ctx = project.ctx();
      const running = call(tool, { method: 'stubborn', arguments: { seconds: 30 } }, ctx);
      ctx.controller.abort();
      const result = await running;
      expect(result.meta).toEqual({ cancelled: true, method_stopped: false });
      expect(result.content).toContain('did not stop within 0.2 s');
      // The worker goes on serving other calls.
      expect((await call(tool, { method: 'talk', arguments: {} }, project.ctx())).isError).toBeUndefined();
    });

    it('a crash fails the running call and every later one, and is not restarted', async () => {
      const pid = tool.info().pid!;
      const expected = new RegExp(
        `^The loaded tool "rough" crashed: its worker process \\(pid ${pid}\\) exited with code 3\\.\\n` +
          'Its last output:\\n[\\s\\S]*about to crash\\nIt is not restarted: load it again with LoadTool ' +
          '\\(path "tools/rough.py"\\) to use it\\.$',
      );
      await expect(call(tool, { method: 'crash', arguments: {} }, project.ctx())).rejects.toThrow(expected);
      await waitFor(() => changes.length > 0);
      expect(changes).toEqual([
        expect.objectContaining({ state: 'crashed', pid, error: expect.stringMatching(expected) }),
      ]);
      expect(tool.info().state).toBe('crashed');
      await expect(call(tool, { method: 'talk', arguments: {} }, project.ctx())).rejects.toThrow(expected);
      expect(isProcessGone(pid)).toBe(true);
      expect(tool.info().pid).toBe(pid);
    });
  });
});
