import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness, TEST_KEY, TEST_MODEL } from '../support/harness';

describe('a scripted turn through the real SDK', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('writes a file through Bash, reads it back, and ends the turn', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'text', text: 'Writing the file.' },
          { type: 'tool_use', name: 'Bash', input: { command: 'echo hello from bash > note.txt' } },
        ],
      },
      { content: [{ type: 'tool_use', name: 'Read', input: { path: 'note.txt' } }] },
      { content: [{ type: 'text', text: 'The file says hello.' }] },
    );
    const turn = await h.startTurn(sessionId, 'write a note');
    expect(turn.status).toBe('running');
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'note.txt'), 'utf8')).toBe('hello from bash\n');

    // The model saw the Read result with the file's content, and the key and model we configured.
    const third = h.model.requests[2]!;
    expect(JSON.stringify(third.body.messages)).toContain('hello from bash');
    expect(third.body.model).toBe(TEST_MODEL);
    expect(third.apiKey).toBe(TEST_KEY);
    expect(third.body.tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Bash', 'Exec', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'AskUserQuestion']),
    );

    const events = await h.events(sessionId);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn.started');
    expect(types.at(-1)).toBe('turn.completed');
    expect(types.filter((t) => t === 'tool.finished')).toHaveLength(2);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const [listed] = page.body.turns;
    expect(listed?.tool_calls.map((c) => [c.name, c.status])).toEqual([
      ['Bash', 'completed'],
      ['Read', 'completed'],
    ]);
    expect(listed?.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'The file says hello.' }]);

    const call = await h.api<{ result: string; status: string }>(
      'GET',
      `/api/tool-calls/${listed!.tool_calls[1]!.id}`,
    );
    expect(call.body.result).toContain('hello from bash');
  });
});
