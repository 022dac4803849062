// runtime.selfref.memory's sidecar side: a script reads and edits the agent's working history through the
// script-only Memory tool, and the edits become one context version after the batch, the raw history kept.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateOf } from '../../src/context/context-state';
import type {
  CairnEvent,
  ContextInfo,
  ContextVersionList,
  ContextVersionView,
  TurnWithDetails,
} from '../../src/protocol';
import { done, script } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';
import { type RecordedRequest, type ScriptedBlock, systemText } from '../support/model-server';
import { seedTurns } from '../support/seed-turns';
import { lastToolResults } from '../support/tool-results';

/** Runs Memory calls in order from a Python script; prints each reply's JSON, or its error text. */
const DRIVER = [
  'import cairn_tools, json, sys',
  'out = []',
  'for method, args in json.loads(sys.argv[1]):',
  '    reply = cairn_tools.call("Memory", args, method=method)',
  '    out.append({"error": reply.content} if reply.is_error else {"value": json.loads(reply.content)})',
  'print(json.dumps(out))',
].join('\n');

type Step = [method: string, args: Record<string, unknown>];
type Answer = { value?: Record<string, unknown>; error?: string };

const bash = (id: string, steps: Step[]): ScriptedBlock => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command: `python3 memory_driver.py '${JSON.stringify(steps)}'` },
});

/** What the script printed, from the Bash result the next request carries. */
function answersIn(req: RecordedRequest, toolUseId: string): Answer[] {
  const result = lastToolResults(req).find((r) => r.tool_use_id === toolUseId);
  if (!result) throw new Error(`no result for ${toolUseId}`);
  return JSON.parse(result.content.trim().split('\n').at(-1)!) as Answer[];
}

/** A request's messages without the prompt-cache markers Cairn adds, for exact comparison. */
function plain(req: RecordedRequest): { role: string; content: Record<string, unknown>[] }[] {
  return JSON.parse(
    JSON.stringify(req.body.messages, (key, value) => (key === 'cache_control' ? undefined : value)),
  );
}

const say = (role: 'user' | 'assistant', text: string) => ({ role, content: [{ type: 'text', text }] });

describe('the Memory tool (runtime.selfref.memory)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    fs.writeFileSync(path.join(h.projectDir, 'memory_driver.py'), DRIVER);
  });
  afterAll(async () => h?.close());

  const eventsOf = async (sessionId: string, type: string) =>
    (await h.events(sessionId)).filter((e) => e.type === type) as (CairnEvent & Record<string, unknown>)[];
  const versionsOf = async (sessionId: string) =>
    (await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`)).body.versions;

  it('a script reads and edits; the next request has the edit, then the round in flight and its result', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 2);
    const steps: Step[] = [
      ['count', {}],
      ['get', { index: 0 }],
      ['get', { index: -1 }],
      ['update', { index: 1, message: { role: 'assistant', content: 'answer 1, edited by memory' } }],
      ['get', { index: 1 }],
      ['set_system_prompt', { text: 'Always answer in haiku.' }],
      ['append_system_prompt', { text: 'Never use emoji.' }],
      ['get_system_prompt', {}],
    ];
    const run = script(h, [
      { content: [{ type: 'text', text: 'Editing.' }, bash('toolu_mem_1', steps)] },
      done(),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'edit your memory')).id);
    expect(turn.status).toBe('completed');
    const [first, next] = run.agent();
    // Memory is the scripts' only: the model is never offered it.
    expect(first!.body.tools?.map((t) => t.name)).toContain('Context');
    expect(first!.body.tools?.map((t) => t.name)).not.toContain('Memory');

    const answers = answersIn(next!, 'toolu_mem_1');
    expect(answers.map((a) => a.error)).toEqual(steps.map(() => undefined));
    expect(answers.map((a) => a.value)).toEqual([
      { count: 5 },
      { message: say('user', 'prompt 1') },
      { message: say('user', 'edit your memory') },
      { count: 5, pending: true, note: 'applied as a new context version after this batch' },
      { message: say('assistant', 'answer 1, edited by memory') },
      { system_prompt: 'Always answer in haiku.', pending: true },
      { system_prompt: 'Always answer in haiku.\nNever use emoji.', pending: true },
      { system_prompt: 'Always answer in haiku.\nNever use emoji.' },
    ]);

    // The next request: the edited messages, then the Bash call and its result, and the addition.
    const sent = plain(next!);
    expect(sent.slice(0, 5)).toEqual([
      say('user', 'prompt 1'),
      say('assistant', 'answer 1, edited by memory'),
      say('user', 'prompt 2'),
      say('assistant', 'answer 2'),
      say('user', 'edit your memory'),
    ]);
    expect(sent).toHaveLength(7);
    expect(sent[5]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Editing.' },
        expect.objectContaining({ type: 'tool_use', id: 'toolu_mem_1' }),
      ],
    });
    expect(sent[6]!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_mem_1' }),
    ]);
    const instructions =
      '<session-instructions>\nAlways answer in haiku.\nNever use emoji.\n</session-instructions>';
    expect(systemText(first!.body)).not.toContain('<session-instructions>');
    expect(systemText(next!.body)).toContain(instructions);

    // The raw history is as it was.
    const page = await h.api<{ turns: TurnWithDetails[] }>(
      'GET',
      `/api/sessions/${sessionId}/turns?limit=50`,
    );
    const raw = page.body.turns.flatMap((t) => t.messages);
    expect(raw).toHaveLength(8);
    // The edit's text is only in the script's command and output; the message it edited is as it was.
    expect(raw[1]!.content).toEqual([{ type: 'text', text: 'answer 1' }]);
    expect(
      raw.filter((m) => JSON.stringify(m.content).includes('edited by memory')).map((m) => m.id),
    ).toEqual([raw[5]!.id, raw[6]!.id]);
    // The version, its event, and what the context shows.
    const versions = await versionsOf(sessionId);
    expect(versions.map((v) => [v.number, v.reason, v.level, v.turn_id])).toEqual([
      [1, 'initial', null, null],
      [2, 'agent_edit', null, turn.id],
    ]);
    expect(page.body.turns.find((t) => t.id === turn.id)!.compactions.map((c) => c.reason)).toEqual([
      'agent_edit',
    ]);
    const events = await h.events(sessionId);
    const edited = events.find((e) => e.type === 'context.edited');
    expect(edited).toMatchObject({
      turn_id: turn.id,
      version: 2,
      messages: 5,
      system_prompt_addition: 'Always answer in haiku.\nNever use emoji.',
    });
    // After the whole batch: the Bash call and the script's Memory calls have all finished.
    const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.seq);
    expect(finished).toHaveLength(9);
    expect(edited!.seq).toBeGreaterThan(Math.max(...finished));
    const info = (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context`)).body;
    expect(info.version).toBe(2);
    expect(info.system_prompt_addition).toBe('Always answer in haiku.\nNever use emoji.');
    expect(info.units.slice(0, 5).map((u) => u.ref)).toEqual(['e:0', 'e:1', 'e:2', 'e:3', 'e:4']);
    // What the model saw before the edit stays readable.
    const old = (await h.api<ContextVersionView>('GET', `/api/sessions/${sessionId}/context/versions/1`))
      .body;
    expect(old.messages[1]).toEqual({ index: 1, ...say('assistant', 'answer 1') });
    const own = (await h.api<ContextVersionView>('GET', `/api/sessions/${sessionId}/context/versions/2`))
      .body;
    expect(own.version).toMatchObject({ reason: 'agent_edit', level: null });
    expect(own.messages[1]).toEqual({ index: 1, ...say('assistant', 'answer 1, edited by memory') });

    // The next turn goes on from the edited context, addition included.
    const after = script(h, [done('Five, seven, five.')]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'and now?')).id);
    const resumed = after.agent()[0]!;
    expect(plain(resumed)[1]).toEqual(say('assistant', 'answer 1, edited by memory'));
    expect(plain(resumed).at(-1)).toEqual(say('user', 'and now?'));
    expect(systemText(resumed.body)).toContain(instructions);
  });

  it('an edit that would leave a tool_result orphaned is refused with a clear error; nothing is written', async () => {
    const { sessionId } = await h.newSession();
    const { store } = h.server.core;
    seedTurns(store, sessionId, 1);
    store.transaction(() => {
      const seeded = store.turns.create(sessionId, 'seed-read', 'look at a');
      const add = (role: 'user' | 'assistant', content: Record<string, unknown>[]) =>
        store.messages.append({ sessionId, turnId: seeded.id, role, content: content as never });
      add('user', [{ type: 'text', text: 'look at a' }]);
      add('assistant', [{ type: 'tool_use', id: 'toolu_seed_read', name: 'Read', input: { path: 'a.txt' } }]);
      add('user', [{ type: 'tool_result', tool_use_id: 'toolu_seed_read', content: 'a says hi' }]);
      add('assistant', [{ type: 'text', text: 'It says hi.' }]);
      store.turns.finish(seeded.id, 'completed');
    });
    const steps: Step[] = [
      ['delete', { index: 3 }],
      ['get', { index: 99 }],
      ['append', { message: { role: 'system', content: 'x' } }],
      ['count', {}],
    ];
    const run = script(h, [{ content: [bash('toolu_mem_bad', steps)] }, done()]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'forget the read')).id);
    expect(turn.status).toBe('completed');
    const answers = answersIn(run.agent()[1]!, 'toolu_mem_bad');
    expect(answers[0]!.error).toBe(
      'Memory edit refused: message 3 (user) has a tool_result for toolu_seed_read but message 1 has no tool_use ' +
        'with that id. A tool_use and its tool_result go together: remove or change both (replace(messages) ' +
        'makes several changes at once).',
    );
    expect(answers[1]!.error).toBe(
      "Memory: get's index 99 is out of range: the history has 7 messages, so an index from -7 to 6.",
    );
    expect(answers[2]!.error).toContain('Memory edit refused: the message has role "system"');
    expect(answers[3]!.value).toEqual({ count: 7 });
    // The call the script tried to delete is still there for the model.
    const sent = plain(run.agent()[1]!);
    expect(sent[3]!.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_seed_read' });
    expect((await versionsOf(sessionId)).map((v) => v.reason)).toEqual(['initial']);
    expect(await eventsOf(sessionId, 'context.edited')).toEqual([]);
  });

  it('a compaction queued in the same batch is applied after the edit: a Session summary covers it', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 2);
    const steps: Step[] = [
      [
        'update',
        { index: 3, message: { role: 'assistant', content: 'answer 2, edited before the summary' } },
      ],
      ['append_system_prompt', { text: 'Keep the summary short.' }],
    ];
    const run = script(h, [
      {
        content: [
          bash('toolu_mem_both', steps),
          {
            type: 'tool_use',
            id: 'toolu_ctx_both',
            name: 'Context',
            input: { method: 'compact', arguments: { level: 'session' } },
          },
        ],
      },
      done(),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'edit, then compact')).id);
    expect(turn.status).toBe('completed');
    expect(answersIn(run.agent()[1]!, 'toolu_mem_both').map((a) => a.error)).toEqual([undefined, undefined]);
    expect((await versionsOf(sessionId)).map((v) => [v.number, v.reason, v.level])).toEqual([
      [1, 'initial', null],
      [2, 'agent_edit', null],
      [3, 'agent', 'session'],
    ]);
    const [edited] = await eventsOf(sessionId, 'context.edited');
    const [compacted] = await eventsOf(sessionId, 'context.compacted');
    expect(edited!.seq).toBeLessThan(compacted!.seq);
    // The summary call read the edited messages, not the raw ones.
    const summaryPrompt = JSON.stringify(run.summaries()[0]!.body.messages);
    expect(summaryPrompt).toContain('answer 2, edited before the summary');
    expect(summaryPrompt).not.toMatch(/answer 2(?!,)/);
    // The next request: the summary, then the round in flight with both results; no edited message left.
    const sent = plain(run.agent()[1]!);
    expect(JSON.stringify(sent)).toContain('<context-summary level=\\"session\\">');
    expect(JSON.stringify(sent[0])).not.toContain('edited before the summary');
    expect(sent).toHaveLength(3);
    expect(sent[1]!.content.map((b) => b.id)).toEqual(['toolu_mem_both', 'toolu_ctx_both']);
    const head = stateOf(h.server.core.store.contextVersions.head(sessionId));
    expect(head.edited).toBeNull();
    expect(head.systemAddition).toBe('Keep the summary short.');
    expect(systemText(run.agent()[1]!.body)).toContain('Keep the summary short.');
  });

  it('edits of a turn cancelled during its batch are dropped with it', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 1);
    const command = `python3 memory_driver.py '${JSON.stringify([['clear', {}]])}' && sleep 60`;
    script(h, [
      { content: [{ type: 'tool_use', id: 'toolu_mem_cancel', name: 'Bash', input: { command } }] },
    ]);
    const turn = await h.startTurn(sessionId, 'clear, then wait');
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'tool.started' && e.name === 'Memory' && e.parent_tool_call_id !== null,
    );
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'tool.finished' && e.status === 'completed' && e.preview.includes('pending'),
    );
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    // Had the edit stayed pending, the next turn's first request would apply it and lose the history.
    const next = script(h, [done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'still there?')).id);
    expect(plain(next.agent()[0]!)[0]).toEqual(say('user', 'prompt 1'));
    expect((await versionsOf(sessionId)).map((v) => v.reason)).toEqual(['initial']);
  });
});
