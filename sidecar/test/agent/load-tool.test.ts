import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, ToolCallOutput, ToolRuntimeInfo } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { lastToolResults } from '../support/tool-results';

const FIXTURES = path.join(import.meta.dirname, '..', 'tools', 'fixtures', 'loaded');

/** LoadTool through the agent: the model loads the README's counter and uses it on its next request. */
describe('LoadTool in a turn', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    for (const file of ['counter.mjs', 'counter_tool.py']) {
      fs.copyFileSync(path.join(FIXTURES, file), path.join(h.projectDir, file));
    }
  });
  afterAll(async () => h?.close());

  for (const [label, load] of [
    ['JavaScript in a worker process', { path: 'counter.mjs', config: { name: 'js_counter' } }],
    ['JavaScript in the sidecar', { path: 'counter.mjs', config: { name: 'local_counter' }, mode: 'local' }],
    ['Python in a worker process', { path: 'counter_tool.py', config: { name: 'py_counter', start: 10 } }],
  ] as const) {
    it(`loads ${label}, offers it on the next request, runs its batch and stream methods`, async () => {
      const { sessionId } = await h.newSession();
      const name = load.config.name;
      const base = h.model.requests.length;
      h.model.enqueue(
        { content: [{ type: 'tool_use', name: 'LoadTool', input: load }] },
        {
          content: [
            { type: 'tool_use', name, input: { method: 'count', union_id: 'apples', arguments: { by: 2 } } },
            { type: 'tool_use', name, input: { method: 'ticks', arguments: { times: 3, every_ms: 20 } } },
          ],
        },
        { content: [{ type: 'text', text: 'counted' }] },
      );
      // Loading into the sidecar itself is asked for even in auto mode, saying what it means.
      const asked: string[] = [];
      const off = h.server.core.store.events.subscribe((e) => {
        if (e.session_id !== sessionId || e.type !== 'question.required') return;
        asked.push(e.question.question);
        void h.api('POST', `/api/questions/${e.question.id}/answer`, { answer: 'allow' });
      });
      const turn = await h.startTurn(sessionId, `load ${name}`);
      try {
        expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
      } finally {
        off();
      }
      if (load.mode === 'local') {
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain("inside Cairn's own process");
      } else {
        expect(asked).toEqual([]);
      }
      // Not in the request that loaded it; in the next one.
      expect(h.model.requests[base]!.body.tools?.map((t) => t.name)).not.toContain(name);
      const tools = h.model.requests[base + 1]!.body.tools!;
      const offered = tools.find((t) => t.name === name)!;
      expect(JSON.stringify(offered.input_schema)).toContain('"count"');
      expect(lastToolResults(h.model.requests[base + 1]!)[0]!.content).toContain(`Loaded the tool "${name}"`);

      const [count, ticks] = lastToolResults(h.model.requests[base + 2]!);
      expect(count!.content).toBe(`apples: ${name === 'py_counter' ? 12 : 2}`);
      // A stream method runs in the background: a receipt, then its items as output pieces.
      const receipt = JSON.parse(ticks!.content) as { call_id: string; status: string };
      expect(receipt.status).toBe('running');
      await h.waitForEvent(
        sessionId,
        (e) => e.type === 'tool.finished' && e.tool_call_id === receipt.call_id,
      );
      const output = await h.api<ToolCallOutput>('GET', `/api/tool-calls/${receipt.call_id}/output`);
      expect(output.body.pieces.map((p) => p.text).join('')).toMatch(/^(default: \d+\n){3}$/);
      expect(output.body.status).toBe('completed');

      const runtime = await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`);
      const loaded = runtime.body.loaded_tools.find((t) => t.name === name)!;
      expect(loaded).toMatchObject({ state: 'ready', mode: load.mode ?? 'process' });
      expect(loaded.methods.map((m) => [m.name, m.kind])).toEqual([
        ['count', 'batch'],
        ['ticks', 'stream'],
      ]);
      expect(loaded.pid === null).toBe(load.mode === 'local');
      const event = (await h.events(sessionId)).find((e) => e.type === 'tool.loaded');
      expect((event as Extract<CairnEvent, { type: 'tool.loaded' }> | undefined)?.tool.name).toBe(name);
    });
  }

  it('refuses a name that is taken, and Python in the sidecar', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'LoadTool', input: { path: 'counter.mjs', config: { name: 'Bash' } } },
          { type: 'tool_use', name: 'LoadTool', input: { path: 'counter_tool.py', mode: 'local' } },
        ],
      },
      { content: [{ type: 'text', text: 'refused' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'clash')).id);
    const [clash, local] = lastToolResults(h.model.requests.at(-1)!);
    expect(clash).toMatchObject({ is_error: true });
    expect(clash!.content).toMatch(/Bash/);
    expect(clash!.content).toMatch(/already available|exists already/);
    expect(local).toMatchObject({ is_error: true });
    expect(local!.content).toContain('runs only in a worker process');
    const runtime = await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`);
    expect(runtime.body.loaded_tools).toEqual([]);
  });

  it('asks for approval in ask mode, and a script calls the loaded tool through cairn tool', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'LoadTool', input: { path: 'counter.mjs', config: { name: 'c2' } } },
        ],
      },
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: `cairn tool call c2 --method count --union-id pears --json '{"by": 5}'` },
          },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'load in ask mode');
    const approvals: string[] = [];
    const off = h.server.core.store.events.subscribe((e) => {
      if (e.session_id !== sessionId || e.type !== 'question.required') return;
      approvals.push(e.question.tool?.name ?? '');
      void h.api('POST', `/api/questions/${e.question.id}/answer`, { answer: 'allow' });
    });
    try {
      expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    } finally {
      off();
    }
    expect(approvals).toEqual(['LoadTool', 'Bash', 'c2']);
    const printed = lastToolResults(h.model.requests.at(-1)!)[0]!.content;
    expect(JSON.parse(printed.trim())).toMatchObject({ content: 'pears: 5', is_error: false });
  });

  it('fails the calls of a crashed worker with a clear error, and loads it again', async () => {
    const { sessionId } = await h.newSession();
    fs.writeFileSync(
      path.join(h.projectDir, 'crasher.mjs'),
      `export function create_tool() {
        return { name: 'crasher', description: 'dies', methods: {
          die: { kind: 'batch', description: 'exits', run() { process.exit(3); } },
          ok: { kind: 'batch', description: 'answers', run() { return 'fine'; } } } };
      }`,
    );
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'LoadTool', input: { path: 'crasher.mjs' } }] },
      { content: [{ type: 'tool_use', name: 'crasher', input: { method: 'die', arguments: {} } }] },
      { content: [{ type: 'tool_use', name: 'crasher', input: { method: 'ok', arguments: {} } }] },
      { content: [{ type: 'tool_use', name: 'LoadTool', input: { path: 'crasher.mjs' } }] },
      { content: [{ type: 'tool_use', name: 'crasher', input: { method: 'ok', arguments: {} } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'crash')).id);
    const n = h.model.requests.length;
    const died = lastToolResults(h.model.requests[n - 4]!)[0]!;
    expect(died).toMatchObject({ is_error: true });
    expect(died.content).toMatch(/exit(ed)? .*3|code 3/);
    expect(died.content).toContain('LoadTool');
    expect(lastToolResults(h.model.requests[n - 3]!)[0]).toMatchObject({ is_error: true });
    expect(lastToolResults(h.model.requests[n - 2]!)[0]!.content).toContain('Loaded the tool "crasher"');
    expect(lastToolResults(h.model.requests[n - 1]!)[0]!.content).toBe('fine');
    const crashed = (await h.events(sessionId)).filter(
      (e): e is Extract<CairnEvent, { type: 'tool.loaded' }> => e.type === 'tool.loaded',
    );
    expect(crashed.map((e) => e.tool.state)).toEqual(['ready', 'crashed', 'ready']);
  });

  it('ends its workers with its session', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'LoadTool', input: { path: 'counter.mjs' } }] },
      { content: [{ type: 'text', text: 'loaded' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'load')).id);
    const runtime = await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`);
    const pid = runtime.body.loaded_tools[0]!.pid!;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await h.api('DELETE', `/api/sessions/${sessionId}`);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
