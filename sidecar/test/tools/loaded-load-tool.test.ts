import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LoadedToolRegistry, loadToolTool } from '../../src/tools/runtime/loaded/load-tool';
import type { LoadedToolHandle } from '../../src/tools/runtime/loaded/loaded-tool-handle';
import { call, TestProject } from './loaded-tools-support';

/** A session's loaded tools, as simply as the tests need. */
class Registry implements LoadedToolRegistry {
  readonly handles = new Map<string, LoadedToolHandle>();
  taken(name: string): boolean {
    return this.handles.get(name)?.info().state === 'ready';
  }
  register(handle: LoadedToolHandle): void {
    this.handles.set(handle.info().name, handle);
  }
}

describe('LoadTool', () => {
  let project: TestProject;
  const registry = new Registry();

  beforeAll(async () => {
    project = await TestProject.create();
  });
  afterAll(async () => {
    await Promise.all([...registry.handles.values()].map((handle) => handle.stop()));
    await project.dispose();
  });

  it("takes {path, factory?, config?, mode?}, runs the project's code (approval in ask mode), needs a project", () => {
    const tool = loadToolTool(project.loader, registry);
    expect(tool).toMatchObject({ name: 'LoadTool', sideEffects: true, needsProject: true });
    const schema = z.toJSONSchema(tool.inputSchema) as {
      properties: Record<string, { enum?: string[] }>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(['path', 'factory', 'config', 'mode']);
    expect(schema.required).toEqual(['path']);
    expect(schema.properties.mode?.enum).toEqual(['process', 'local']);
    expect(tool.inputSchema.safeParse({ path: 'a.py', mode: 'thread' }).success).toBe(false);
  });

  it('loads a tool, registers it, and tells the model how to use it from its next request', async () => {
    const tool = loadToolTool(project.loader, registry);
    const ctx = project.ctx('load-1');
    const result = await tool.execute(
      tool.inputSchema.parse({ path: 'tools/counter.mjs', mode: 'local' }),
      ctx,
    );
    expect(result.content).toBe(
      [
        'Loaded the tool "counter" from tools/counter.mjs (javascript, inside Cairn).',
        'Methods:',
        '- count (batch): Adds `by` (default 1) to the counter and returns its new value.',
        '- ticks (stream, always runs in the background): Counts up `times` times (default 3), one item every `every_ms` ms (default 100).',
        'You can use it from your next request: call counter with {"method": "count", "arguments": {...}}.',
      ].join('\n'),
    );
    expect(result.meta?.loaded_tool).toMatchObject({
      name: 'counter',
      mode: 'local',
      tool_call_id: 'load-1',
    });
    const handle = registry.handles.get('counter')!;
    expect((await call(handle, { method: 'count', arguments: {} }, project.ctx())).content).toBe(
      'default: 1',
    );
  });

  it('refuses a name the session already has, and a conversation without a project', async () => {
    const tool = loadToolTool(project.loader, registry);
    await expect(
      tool.execute(tool.inputSchema.parse({ path: 'tools/counter_tool.py' }), project.ctx('load-2')),
    ).rejects.toThrow('A tool named "counter" is already available in this session.');
    const result = await tool.execute(
      tool.inputSchema.parse({ path: 'tools/counter_tool.py', config: { name: 'py_counter' } }),
      project.ctx('load-3'),
    );
    expect(result.content).toMatch(
      /^Loaded the tool "py_counter" from tools\/counter_tool\.py \(python, in a worker process \(pid \d+\)\)\./,
    );
    await expect(
      tool.execute(tool.inputSchema.parse({ path: 'tools/counter.mjs' }), {
        ...project.ctx(),
        projectRoot: null,
      }),
    ).rejects.toThrow('This tool needs a project folder');
  });
});
