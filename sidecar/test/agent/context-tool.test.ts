// The agent manages its own context with the Context tool: compaction it asks for (queued until the whole
// batch is written), memory it keeps, and versions it reads back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, ContextInfo } from '../../src/protocol';
import type { Store } from '../../src/store/store';
import { done, script, summaryOf, summaryReply, useWindow } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';
import { type RecordedRequest, type ScriptedReply, systemText } from '../support/model-server';

function seedTurns(store: Store, sessionId: string, count: number, pad = 0): void {
  for (let i = 1; i <= count; i++) {
    store.transaction(() => {
      const turn = store.turns.create(sessionId, `seed-${i}`, `seeded prompt ${i}`);
      for (const [role, text] of [
        ['user', `seeded prompt ${i}`],
        ['assistant', `seeded answer ${i} ${'with details '.repeat(pad)}`],
      ] as const) {
        store.messages.append({ sessionId, turnId: turn.id, role, content: [{ type: 'text', text }] });
      }
      store.turns.finish(turn.id, 'completed');
    });
  }
}

const call = (input: unknown, text = 'Managing my context.'): ScriptedReply => ({
  content: [
    { type: 'text', text },
    { type: 'tool_use', name: 'Context', input },
  ],
});

/** The JSON a Context call answered in the request after it. */
function lastResult(req: RecordedRequest): { content: string; is_error?: boolean } {
  const last = req.body.messages.at(-1)!.content as { type: string; content: string; is_error?: boolean }[];
  return last.find((b) => b.type === 'tool_result')!;
}

describe('the Context tool', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await useWindow(h, { context_window: 100_000, max_tokens: 2000, compact_threshold: 0.8 });
    fs.writeFileSync(path.join(h.projectDir, 'small.txt'), 'small file\n');
  });
  afterAll(async () => h?.close());

  it('compact with the summary fields: queued, applied after the whole batch, no summary call', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 3);
    const given = summaryOf('the agent', { remember: ['the agent wrote this summary itself'] });
    const run = script(h, [
      {
        content: [
          {
            type: 'tool_use',
            name: 'Context',
            input: { method: 'compact', arguments: { level: 'session', ...given } },
          },
          { type: 'tool_use', name: 'Read', input: { path: 'small.txt' } },
        ],
      },
      done(),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'compact yourself')).id);
    expect(turn.status).toBe('completed');
    expect(run.summaries()).toHaveLength(0);
    const answer = JSON.parse(lastResult(run.agent()[1]!).content);
    expect(answer).toMatchObject({ status: 'queued', level: 'session', summary_call: false });
    const events = await h.events(sessionId);
    const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.seq);
    const compacted = events.find((e) => e.type === 'context.compacted') as CairnEvent & {
      reason: string;
      level: string;
    };
    expect(compacted).toMatchObject({
      reason: 'agent',
      level: 'session',
      summary: { goal: 'goal of the agent' },
    });
    expect(finished).toHaveLength(2);
    expect(compacted.seq).toBeGreaterThan(Math.max(...finished));
    const sent = run.agent()[1]!.body;
    const messages = JSON.stringify(sent.messages);
    expect(messages).toContain('goal of the agent');
    expect(messages).not.toContain('seeded answer 2');
    // The prompt and the current round stay verbatim: the loop goes on where it was.
    expect(messages).toContain('compact yourself');
    expect(messages).toContain('small file');
    // remember entries became experiences: in the system prompt from the next request on.
    expect(systemText(run.agent()[0]!.body)).not.toContain('the agent wrote this summary itself');
    expect(systemText(sent)).toMatch(/<exp id="[^"]+">the agent wrote this summary itself<\/exp>/);

    // A restart resumes from HEAD: the compacted context, not the raw history.
    await h.restart();
    const after = script(h, [done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'after the restart')).id);
    const resumed = JSON.stringify(after.agent()[0]!.body.messages);
    expect(resumed).toContain('goal of the agent');
    expect(resumed).not.toContain('seeded answer 2');
    const info = (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context`)).body;
    expect(info.version).toBe(2);
  });

  it('compact without the fields asks the model for the summary', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 3, 300);
    const usage = (input_tokens: number, output_tokens: number) => ({
      usage: { input_tokens, output_tokens },
    });
    const run = script(
      h,
      [
        { ...call({ method: 'compact', arguments: { level: 'turn' } }), ...usage(1000, 20) },
        { ...done(), ...usage(1100, 10) },
      ],
      () => ({ ...summaryReply(summaryOf('a past turn')), ...usage(5000, 300) }),
    );
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'compact the old turns')).id);
    expect(turn.status).toBe('completed');
    const calls = run.summaries().length;
    expect(calls).toBeGreaterThan(0);
    // The turn's tokens count its summary calls too: compaction is part of what the turn cost.
    expect(turn.usage).toMatchObject({ input_tokens: 2100 + 5000 * calls, output_tokens: 30 + 300 * calls });
    expect(JSON.stringify(run.summaries()[0]!.body.messages)).toContain('seeded answer 1');
    const compacted = (await h.events(sessionId)).filter((e) => e.type === 'context.compacted');
    expect(compacted[0]).toMatchObject({ reason: 'agent', level: 'turn' });
    expect(JSON.stringify(run.agent()[1]!.body.messages)).toContain('<context-summary level=\\"turn\\">');
  });

  it('a bad ref is refused at once, and nothing is queued', async () => {
    const { sessionId } = await h.newSession();
    const run = script(h, [call({ method: 'compact', arguments: { ref: 'b:999999:0' } }), done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'compact something odd')).id);
    const result = lastResult(run.agent()[1]!);
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/b:999999:0/);
    expect((await h.events(sessionId)).some((e) => e.type.startsWith('context.'))).toBe(false);
  });

  it('needs no approval, even in ask mode', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const run = script(h, [
      call({ method: 'inspect' }),
      call({ method: 'remember', arguments: { text: 'asked nobody' } }),
      done(),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'look at your context')).id);
    expect(turn.status).toBe('completed');
    expect(run.agent()).toHaveLength(3);
    const events = await h.events(sessionId);
    expect(events.filter((e) => e.type === 'question.required')).toEqual([]);
    expect(JSON.parse(lastResult(run.agent()[1]!).content)).toMatchObject({ version: 1 });
  });

  it('remember and forget change the system prompt; inspect shows them; versions and read look back', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 2);
    let rememberedId = '';
    const run = script(h, [
      call({ method: 'remember', arguments: { text: 'tests run with npm test <fast>' } }),
      {
        kind: 'handler',
        handle: (req) => {
          rememberedId = JSON.parse(lastResult(req).content).id;
          return call({ method: 'inspect' });
        },
      },
      call({ method: 'compact', arguments: { level: 'session', ...summaryOf('memory test') } }),
      call({ method: 'versions' }),
      call({ method: 'read', arguments: { version: 1 } }),
      { kind: 'handler', handle: () => call({ method: 'forget', arguments: { id: rememberedId } }) },
      done(),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'remember something')).id);
    expect(turn.status).toBe('completed');
    const requests = run.agent();
    expect(systemText(requests[0]!.body)).not.toContain('<experiences>');
    expect(systemText(requests[1]!.body)).toContain(
      `<exp id="${rememberedId}">tests run with npm test &lt;fast&gt;</exp>`,
    );
    const inspected = JSON.parse(lastResult(requests[2]!).content);
    expect(inspected.version).toBe(1);
    expect(inspected.units.length).toBeGreaterThan(3);
    expect(inspected.experiences.map((e: { id: string }) => e.id)).toEqual([rememberedId]);
    const versions = JSON.parse(lastResult(requests[4]!).content);
    expect(versions.versions.map((v: { number: number; reason: string }) => [v.number, v.reason])).toEqual([
      [1, 'initial'],
      [2, 'agent'],
    ]);
    const read = JSON.parse(lastResult(requests[5]!).content);
    expect(JSON.stringify(read.messages)).toContain('seeded answer 1');
    expect(systemText(requests[6]!.body)).not.toContain('<experiences>');
    expect(h.server.core.store.experiences.forSession(sessionId, null)).toHaveLength(0);
  });
});
