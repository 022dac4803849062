import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planCall } from '../../src/tools/runtime/call-plan';
import { defineTool, type Tool, toolInputJsonSchema } from '../../src/tools/tool';

const tool = (extra: Partial<Tool>): Tool =>
  defineTool({
    name: 'T',
    description: 't',
    inputSchema: z.record(z.string(), z.unknown()),
    sideEffects: false,
    needsProject: false,
    execute: async () => ({ content: '' }),
    ...extra,
  });

/** What the runtime takes off a call's input before the tool's own schema sees the rest. */
describe('planCall', () => {
  it('takes is_wait off, and refuses is_wait false for a tool that cannot run in the background', () => {
    expect(planCall(tool({ background: 'tool' }), { a: 1, is_wait: false })).toMatchObject({
      input: { a: 1 },
      background: true,
      error: null,
    });
    expect(planCall(tool({}), { a: 1, is_wait: true })).toMatchObject({ input: { a: 1 }, background: false });
    expect(planCall(tool({}), { is_wait: false }).error).toContain('cannot run in the background');
  });

  it('keeps the runner’s timeout, unless the tool’s own input has one, and leaves a tool’s own is_wait alone', () => {
    const mcp = (properties: Record<string, unknown>) =>
      tool({ background: 'runner', jsonSchema: { type: 'object', properties } });
    expect(planCall(mcp({}), { q: 1, timeout: 2.5, is_wait: false })).toMatchObject({
      input: { q: 1 },
      timeoutMs: 2500,
      background: true,
    });
    expect(planCall(mcp({ timeout: {} }), { timeout: 3 })).toMatchObject({
      input: { timeout: 3 },
      timeoutMs: null,
    });
    const own = mcp({ is_wait: { type: 'boolean' } });
    expect(planCall(own, { is_wait: false })).toMatchObject({ input: { is_wait: false }, background: false });
    expect(toolInputJsonSchema(own).properties).toEqual({ is_wait: { type: 'boolean' } });
    expect(planCall(mcp({}), { timeout: -1 }).error).toContain('positive number');
  });

  it('runs a stream method in the background whatever is_wait says', () => {
    const multi = tool({
      background: 'runner',
      methods: [
        { name: 'once', kind: 'batch', description: '' },
        { name: 'ticks', kind: 'stream', description: '' },
      ],
    });
    expect(planCall(multi, { method: 'ticks', arguments: {} })).toMatchObject({
      background: true,
      method: 'ticks',
    });
    expect(planCall(multi, { method: 'once', arguments: {}, is_wait: true })).toMatchObject({
      background: false,
    });
  });
});
