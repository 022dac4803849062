// Prompt caching through the real SDK: requests carry the API's breakpoints, the prefix stays byte-identical
// across a long tool loop, and the cache the test server keeps serves most of the input, which the turn's
// usage reports.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import type { MessagesRequestBody, ScriptedReply } from '../support/model-server';
import { unmarked } from '../support/prompt-cache';

const ROUNDS = 40;

/** Paths of every block that carries cache_control, as `tools[3]`, `system[0]`, `messages[5][1]`. */
function marks(body: MessagesRequestBody): string[] {
  const found: string[] = [];
  const has = (v: unknown): boolean => typeof v === 'object' && v !== null && 'cache_control' in v;
  for (const [i, tool] of (body.tools ?? []).entries()) if (has(tool)) found.push(`tools[${i}]`);
  const system = Array.isArray(body.system) ? (body.system as unknown[]) : [];
  for (const [i, block] of system.entries()) if (has(block)) found.push(`system[${i}]`);
  for (const [i, message] of body.messages.entries()) {
    for (const [j, block] of (message.content as unknown[]).entries()) {
      if (has(block)) found.push(`messages[${i}][${j}]`);
    }
  }
  return found;
}

describe(`prompt caching over a ${ROUNDS}-round tool loop`, () => {
  let h: Harness;
  let turn: Turn;
  let requests: MessagesRequestBody[];

  beforeAll(async () => {
    h = await startHarness();
    fs.writeFileSync(path.join(h.projectDir, 'notes.txt'), `${'a line of notes to read again\n'.repeat(60)}`);
    const { sessionId } = await h.newSession();
    const rounds: ScriptedReply[] = Array.from({ length: ROUNDS }, (_, i) => ({
      content: [
        { type: 'text', text: `Reading, round ${i + 1}.` },
        { type: 'tool_use', name: 'Read', input: { path: 'notes.txt' } },
      ],
    }));
    h.model.enqueue(...rounds, { content: [{ type: 'text', text: 'Read it all.' }] });
    const end = await h.waitForTurnEnd((await h.startTurn(sessionId, 'read the notes many times')).id);
    turn = end as Turn;
    requests = h.model.requests.map((r) => r.body);
  });
  afterAll(async () => h?.close());

  it('ran every round', () => {
    expect(turn.status).toBe('completed');
    expect(requests).toHaveLength(ROUNDS + 1);
  });

  it('marks the tools, the system prompt, the end and the previous end, never more than four', () => {
    const toolCount = requests[0]!.tools!.length;
    expect(marks(requests[0]!)).toEqual([`tools[${toolCount - 1}]`, 'system[0]', 'messages[0][0]']);
    for (let i = 1; i < requests.length; i++) {
      const body = requests[i]!;
      const last = body.messages.length - 1;
      const lastBlock = (body.messages[last]!.content as unknown[]).length - 1;
      const previous = requests[i - 1]!;
      const prevLast = previous.messages.length - 1;
      const prevBlock = (previous.messages[prevLast]!.content as unknown[]).length - 1;
      expect(marks(body)).toEqual([
        `tools[${toolCount - 1}]`,
        'system[0]',
        `messages[${prevLast}][${prevBlock}]`,
        `messages[${last}][${lastBlock}]`,
      ]);
    }
  });

  it('sends each request as the previous one plus what was added, byte for byte apart from the marks', () => {
    for (let i = 1; i < requests.length; i++) {
      const before = unmarked(requests[i - 1]) as MessagesRequestBody;
      const now = unmarked(requests[i]) as MessagesRequestBody;
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(before.tools));
      expect(JSON.stringify(now.system)).toBe(JSON.stringify(before.system));
      const kept = now.messages.slice(0, before.messages.length);
      expect(JSON.stringify(kept)).toBe(JSON.stringify(before.messages));
    }
  });

  it("reports what the cache served in the turn's usage: nine in ten input tokens or more", () => {
    const usage = turn.usage!;
    const totals = h.model.cache.totals;
    expect(usage.cache_read_input_tokens).toBe(totals.read);
    expect(usage.cache_creation_input_tokens).toBe(totals.written);
    expect(usage.input_tokens).toBe(totals.input);
    const all = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    expect(usage.cache_read_input_tokens / all).toBeGreaterThanOrEqual(0.9);
  });
});
