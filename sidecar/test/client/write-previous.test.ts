import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, CairnClient } from '../../src/client';
import type { ToolCall } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

/** A Write that replaces a file keeps the old text beside its result, for the card's diff. */
describe('the text a Write replaced', () => {
  let h: Harness;
  let sessionId: string;
  let client: CairnClient;

  /** Runs a turn whose model calls Write once, and returns the call. */
  const write = async (file: string, content: string): Promise<ToolCall> => {
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: file, content } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'write it');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const calls = h.server.core.store.toolCalls.forTurns([turn.id]).get(turn.id) ?? [];
    expect(calls).toHaveLength(1);
    return calls[0]!;
  };

  beforeAll(async () => {
    h = await startHarness();
    ({ sessionId } = await h.newSession({ approval: 'auto' }));
    client = new CairnClient({ url: h.server.url, token: h.server.token });
  });
  afterAll(async () => h?.close());

  it('serves the old text of an overwritten file, owner-only, and says so in meta', async () => {
    fs.writeFileSync(path.join(h.projectDir, 'notes.md'), 'old line\nkept\n');
    const call = await write('notes.md', 'new line\nkept\n');
    expect(call.meta).toEqual({ replaced: true, previous_saved: true });
    const stored = await client.toolCall(call.id);
    // The model's text is what it always was.
    expect(stored.result).toBe('Overwrote notes.md: 14 bytes, 2 lines.');
    expect(await client.previousContent(call.id)).toBe('old line\nkept\n');
    // Kept outside the results folder a sandboxed process may write to, and owner-only.
    const saved = path.join(h.dataDir, 'sessions', sessionId, 'replaced-text', `${call.id}.txt`);
    if (process.platform !== 'win32') expect(fs.statSync(saved).mode & 0o077).toBe(0);
    expect(fs.readdirSync(path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', call.id))).not.toContain(
      'previous',
    );
  });

  it('a created file has no previous text: 404 not_found', async () => {
    const call = await write('fresh.txt', 'hello\n');
    expect(call.meta).toBeNull();
    const error = await client.previousContent(call.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).code).toBe('not_found');
  });

  it('keeps nothing of a binary file it replaced', async () => {
    fs.writeFileSync(path.join(h.projectDir, 'blob.bin'), Buffer.from([1, 0, 2]));
    const call = await write('blob.bin', 'text now\n');
    expect(call.meta).toEqual({ replaced: true, previous_saved: false });
    const response = await h.api('GET', `/api/tool-calls/${call.id}/previous`);
    expect(response.status).toBe(404);
  });

  it('wants the token', async () => {
    fs.writeFileSync(path.join(h.projectDir, 'secret.txt'), 'before\n');
    const call = await write('secret.txt', 'after\n');
    const anonymous = await fetch(`${h.server.url}/api/tool-calls/${call.id}/previous`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('before');
  });
});
