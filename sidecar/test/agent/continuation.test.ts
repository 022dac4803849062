import { afterEach, describe, expect, it } from 'vitest';
import { CONTINUE_INSTRUCTION, SMALLER_INSTRUCTION } from '../../src/agent/turn-runner';
import type { CairnEvent, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

describe('max_tokens continuation', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('keeps what was generated, asks to continue with the same budget, and completes', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'text', text: 'The first half, ' }], stop_reason: 'max_tokens' },
      { content: [{ type: 'text', text: 'and the second half.' }] },
    );
    const turn = await h.startTurn(sessionId, 'write a long answer');
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('completed');
    expect(done.continuations).toBe(1);

    const [first, second] = h.model.requests;
    expect(second!.body.max_tokens).toBe(first!.body.max_tokens);
    const messages = second!.body.messages;
    expect(messages.at(-2)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'The first half, ' }],
    });
    expect(JSON.stringify(messages.at(-1))).toContain(CONTINUE_INSTRUCTION);

    const events = await h.events(sessionId);
    const continuation = events.find((e) => e.type === 'llm.continuation');
    expect(continuation).toMatchObject({ reason: 'max_tokens', attempt: 1, turn_id: turn.id });

    // History keeps both parts; the continue instruction is marked internal.
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const msgs = page.body.turns[0]!.messages;
    expect(msgs.filter((m) => m.internal)).toHaveLength(1);
    expect(msgs.filter((m) => m.role === 'assistant').map((m) => m.content[0]!.text)).toEqual([
      'The first half, ',
      'and the second half.',
    ]);
  });

  it('discards a response cut inside a tool call: nothing runs, the truncated input never enters history', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'text', text: 'Writing it all at once.' },
          {
            type: 'tool_use',
            name: 'Write',
            input: { path: 'big.txt', content: 'x'.repeat(500) },
            truncate: true,
          },
        ],
        stop_reason: 'max_tokens',
      },
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'small.txt', content: 'small' } }] },
      { content: [{ type: 'text', text: 'Done in smaller steps.' }] },
    );
    const turn = await h.startTurn(sessionId, 'write a big file');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const second = h.model.requests[1]!.body.messages;
    const text = JSON.stringify(second);
    expect(text).not.toContain('big.txt');
    expect(text).not.toContain('Writing it all at once.');
    expect(text).toContain(SMALLER_INSTRUCTION);
    const events = await h.events(sessionId);
    expect(
      events
        .filter((e) => e.type === 'tool.started')
        .map((e) => (e as { input: { path: string } }).input.path),
    ).toEqual(['small.txt']);
    expect(events.find((e) => e.type === 'llm.continuation')).toMatchObject({
      reason: 'truncated_tool_call',
    });
  });

  it('caps recoveries, and resets the count after a completed tool round', async () => {
    h = await startHarness({ env: { CAIRN_MAX_CONTINUATIONS: '2' } });
    const { sessionId } = await h.newSession();
    const cut = { content: [{ type: 'text' as const, text: 'more…' }], stop_reason: 'max_tokens' as const };
    // Two recoveries, a tool round (resets), two more recoveries, then an answer: completes.
    h.model.enqueue(
      cut,
      cut,
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'true' } }] },
      cut,
      cut,
      { content: [{ type: 'text', text: 'finished' }] },
    );
    const ok = await h.startTurn(sessionId, 'go');
    expect((await h.waitForTurnEnd(ok.id)).status).toBe('completed');

    // Three in a row exceed the cap of two: the turn fails and says what to do.
    h.model.enqueue(cut, cut, cut);
    const failing = await h.startTurn(sessionId, 'again');
    const failed = await h.waitForTurnEnd(failing.id);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('continuation_limit');
    expect(failed.error?.message).toMatch(/max_tokens/);
    const continuations = (await h.events(sessionId)).filter(
      (e): e is Extract<CairnEvent, { type: 'llm.continuation' }> => e.type === 'llm.continuation',
    );
    // The third cut is not continued: no event for it, the turn fails instead.
    expect(continuations.map((e) => e.attempt)).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it('treats an empty response as an explicit error', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [], stop_reason: 'end_turn' });
    const turn = await h.startTurn(sessionId, 'say something');
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('model_empty_response');
    const last = (await h.events(sessionId)).at(-1);
    expect(last).toMatchObject({ type: 'turn.failed', error: { code: 'model_empty_response' } });
  });
});
