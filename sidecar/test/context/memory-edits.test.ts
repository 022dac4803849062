// The agent's memory edits over a real store: snapshots and the working copy, Python-style indexes, and the
// one context version they become after the batch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRef } from '../../src/context/compaction-planner';
import { protect, segmentsOf } from '../../src/context/context-protection';
import { stateOf } from '../../src/context/context-state';
import { buildView, viewMessages } from '../../src/context/context-view';
import { MemoryEdits } from '../../src/context/memory-edits';
import { EDIT_START, writeMemoryEdit } from '../../src/context/memory-version';
import type { ContentBlock } from '../../src/protocol';
import { Store } from '../../src/store/store';

let dataDir: string;
let store: Store;
let sessionId: string;
let edits: MemoryEdits;
/** The assistant message whose call runs now. */
let frontier: number;

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const say = (role: 'user' | 'assistant', t: string) => ({ role, content: [text(t)] });

function append(role: 'user' | 'assistant', content: ContentBlock[], turnId: string | null = null): number {
  return store.messages.append({ sessionId, turnId, role, content }).id;
}

/** A finished turn with a Read round, then a turn whose Bash call is running. */
beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-memory-')));
  store = Store.open(dataDir);
  sessionId = store.sessions.create({ projectId: null }).id;
  append('user', [text('prompt 1')]);
  append('assistant', [
    text('reading'),
    { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'a' } },
  ]);
  append('user', [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'contents of a' }]);
  append('assistant', [text('answer 1')]);
  append('user', [text('prompt 2')]);
  frontier = append('assistant', [
    text('running'),
    { type: 'tool_use', id: 'toolu_live', name: 'Bash', input: { command: 'python3 x.py' } },
  ]);
  edits = new MemoryEdits(store);
});

afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The batch's results are written, as the turn runner does before the next request. */
const finishBatch = () =>
  append('user', [{ type: 'tool_result', tool_use_id: 'toolu_live', content: 'script output' }]);

const rowCount = () =>
  (
    store.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(sessionId) as {
      n: number;
    }
  ).n;

describe('MemoryEdits', () => {
  it('reads the working history before the round in flight, with Python-style indexes', () => {
    expect(edits.count(sessionId)).toBe(5);
    expect(edits.get(sessionId, 0)).toEqual(say('user', 'prompt 1'));
    expect(edits.get(sessionId, -1)).toEqual(say('user', 'prompt 2'));
    expect(edits.get(sessionId, -5)).toEqual(edits.get(sessionId, 0));
    expect(() => edits.get(sessionId, 5)).toThrow(
      "Memory: get's index 5 is out of range: the history has 5 messages, so an index from -5 to 4.",
    );
    expect(() => edits.get(sessionId, -6)).toThrow("get's index -6 is out of range");
    expect(() => edits.get(sessionId, 1.5)).toThrow("get's index must be an integer, not 1.5");
    expect(() => edits.delete(sessionId, 9)).toThrow("delete's index 9 is out of range");
    expect(() => edits.update(sessionId, -9, say('user', 'x'))).toThrow("update's index -9 is out of range");
  });

  it('inserts like list.insert within -n..n, and refuses past it', () => {
    edits.insert(sessionId, 5, say('user', 'at the end'));
    expect(edits.get(sessionId, -1)).toEqual(say('user', 'at the end'));
    edits.insert(sessionId, -1, say('user', 'before the last'));
    expect(
      edits
        .all(sessionId)
        .map((m) => (m.content[0] as { text?: string }).text)
        .slice(-3),
    ).toEqual(['prompt 2', 'before the last', 'at the end']);
    edits.insert(sessionId, -7, say('user', 'first of all'));
    expect(edits.get(sessionId, 0)).toEqual(say('user', 'first of all'));
    expect(() => edits.insert(sessionId, 9, say('user', 'x'))).toThrow(
      "insert's index 9 is out of range: the history has 8 messages, so an index from -8 to 8",
    );
    expect(() => edits.insert(sessionId, -9, say('user', 'x'))).toThrow("insert's index -9 is out of range");
    const empty = new MemoryEdits(store);
    empty.clear(sessionId);
    expect(() => empty.get(sessionId, 0)).toThrow("get's index 0 is out of range: the history is empty");
  });

  it('reads are copies; a read after an edit sees it; a refused edit changes nothing', () => {
    const first = edits.get(sessionId, 0);
    first.content[0]!.text = 'changed by the caller';
    expect(edits.get(sessionId, 0)).toEqual(say('user', 'prompt 1'));

    expect(edits.update(sessionId, 3, say('assistant', 'answer 1, edited'))).toBe(5);
    expect(edits.get(sessionId, 3)).toEqual(say('assistant', 'answer 1, edited'));

    // Deleting the call leaves its result orphaned: refused, and the working copy stays as it was.
    expect(() => edits.delete(sessionId, 1)).toThrow(
      'Memory edit refused: message 1 (user) has a tool_result for toolu_a but no assistant message comes before it',
    );
    expect(() => edits.update(sessionId, 1, say('assistant', 'no call any more'))).toThrow(
      'Memory edit refused: message 2 (user) has a tool_result for toolu_a but message 1 has no tool_use with that id',
    );
    expect(edits.count(sessionId)).toBe(5);
    // replace makes the compound change: the call and its result go together.
    const all = edits.all(sessionId);
    expect(edits.replace(sessionId, [all[0]!, ...all.slice(3)])).toBe(3);
    expect(edits.all(sessionId)[1]).toEqual(say('assistant', 'answer 1, edited'));
  });

  it('keeps a user message last while a round is in flight: an assistant one would merge into the running reply', () => {
    expect(() => edits.append(sessionId, say('assistant', 'a note to self'))).toThrow(
      'Memory edit refused: message 5 is an assistant message, but the working history must end with a user message',
    );
    expect(edits.count(sessionId)).toBe(5);
    // Followed by a user message it is fine.
    edits.replace(sessionId, [
      ...edits.all(sessionId),
      say('assistant', 'a note to self'),
      say('user', 'go on'),
    ]);
    expect(edits.count(sessionId)).toBe(7);
  });

  it('refuses an edit that reuses the running call id, and takes a fresh snapshot after take()', () => {
    const call = { type: 'tool_use', id: 'toolu_live', name: 'Bash', input: {} };
    const result = { type: 'tool_result', tool_use_id: 'toolu_live', content: 'x' };
    expect(() =>
      edits.replace(sessionId, [
        say('user', 'go'),
        { role: 'assistant', content: [call] },
        { role: 'user', content: [result] },
      ]),
    ).toThrow('the id of a tool call running now');
    edits.clear(sessionId);
    expect(edits.take(sessionId)?.messages).toEqual([]);
    expect(edits.take(sessionId)).toBeNull();
    expect(edits.count(sessionId)).toBe(5);
    edits.drop(sessionId);
    expect(edits.take(sessionId)).toBeNull();
  });

  it('keeps the system prompt addition apart: set, append with a newline, empty clears it', () => {
    expect(edits.systemPrompt(sessionId)).toBe('');
    expect(edits.appendSystemPrompt(sessionId, 'Answer briefly.')).toBe('Answer briefly.');
    expect(edits.appendSystemPrompt(sessionId, 'Use metric units.')).toBe(
      'Answer briefly.\nUse metric units.',
    );
    expect(edits.setSystemPrompt(sessionId, 'Only this.')).toBe('Only this.');
    expect(edits.systemPrompt(sessionId)).toBe('Only this.');
    expect(() => edits.setSystemPrompt(sessionId, 'x'.repeat(20_001))).toThrow(
      'the system prompt addition would be 20001 characters, over the 20000 allowed',
    );
    expect(edits.setSystemPrompt(sessionId, '')).toBe('');
    expect(edits.take(sessionId)?.systemAddition).toBeNull();
  });
});

describe('writeMemoryEdit', () => {
  it('writes the edited messages before the round in flight, which stays with its results', () => {
    edits.update(sessionId, 3, say('assistant', 'answer 1, edited'));
    edits.setSystemPrompt(sessionId, 'Be brief.');
    const rows = rowCount();
    const results = finishBatch();
    const outcome = writeMemoryEdit(store, edits.take(sessionId)!, null);
    expect(outcome.kind).toBe('written');
    const head = store.contextVersions.head(sessionId)!;
    expect(head).toMatchObject({ number: 2, reason: 'agent_edit', level: null, first_message_id: frontier });
    expect(head.upto_message_id).toBe(results);
    const state = stateOf(head);
    expect(state.systemAddition).toBe('Be brief.');
    expect(state.edited).toHaveLength(5);
    const sent = viewMessages(buildView(store, sessionId));
    expect(sent.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(sent[3]).toEqual(say('assistant', 'answer 1, edited'));
    expect(sent[5]!.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_live' });
    expect(sent[6]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_live' });
    // The raw history is as it was: the edit is a version, not a rewrite.
    expect(rowCount()).toBe(rows + 1);
    expect(store.messages.range(sessionId, null, null)[3]!.content).toEqual([text('answer 1')]);
    expect(store.events.after(sessionId, 0).filter((e) => e.type === 'context.edited')).toMatchObject([
      { version: 2, messages: 5, system_prompt_addition: 'Be brief.' },
    ]);
    // The version before is still there to read.
    const old = buildView(store, sessionId, stateOf(store.contextVersions.byNumber(sessionId, 1)), results);
    expect(JSON.stringify(viewMessages(old))).toContain('answer 1"');
  });

  it('a cleared history starts with a note, since the conversation must begin with a user message', () => {
    edits.clear(sessionId);
    finishBatch();
    writeMemoryEdit(store, edits.take(sessionId)!, null);
    const sent = viewMessages(buildView(store, sessionId));
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[0]).toEqual(say('user', EDIT_START));
    // Its units are the edited kind: a ref to one is refused rather than compacting everything.
    const view = buildView(store, sessionId);
    expect(() =>
      checkRef(view, protect(view, segmentsOf(view), { explicit: true, tailTokens: 0 }), 'e:0'),
    ).toThrow('Unit e:0 is a message of your own memory edit');
  });

  it('a change of the system prompt alone keeps the rest of HEAD', () => {
    edits.count(sessionId);
    edits.appendSystemPrompt(sessionId, 'Prefer tables.');
    finishBatch();
    writeMemoryEdit(store, edits.take(sessionId)!, null);
    const head = stateOf(store.contextVersions.head(sessionId));
    expect(head).toMatchObject({
      number: 2,
      firstMessageId: null,
      edited: null,
      systemAddition: 'Prefer tables.',
    });
  });

  it('writes nothing for reads, or edits that changed nothing', () => {
    edits.all(sessionId);
    edits.update(sessionId, 0, say('user', 'prompt 1'));
    edits.setSystemPrompt(sessionId, '');
    expect(writeMemoryEdit(store, edits.take(sessionId)!, null)).toEqual({ kind: 'unchanged' });
    expect(store.contextVersions.list(sessionId)).toHaveLength(1);
  });

  it('writes nothing over a version written since the snapshot', () => {
    edits.clear(sessionId);
    const head = store.contextVersions.head(sessionId)!;
    store.contextVersions.create({
      sessionId,
      parentId: head.id,
      reason: 'agent',
      level: 'block',
      turnId: null,
      tokensBefore: 10,
      tokensAfter: 5,
      firstMessageId: null,
      summary: null,
      cuts: [],
      keptMessageIds: [],
      uptoMessageId: frontier,
      edited: null,
      systemAddition: null,
    });
    expect(writeMemoryEdit(store, edits.take(sessionId)!, null)).toEqual({
      kind: 'stale',
      snapshot: 1,
      head: 2,
    });
    expect(store.contextVersions.list(sessionId)).toHaveLength(2);
    expect(store.events.after(sessionId, 0).some((e) => e.type === 'context.edited')).toBe(false);
  });

  it('between rounds, the history after the snapshot follows the edited part', () => {
    finishBatch();
    append('assistant', [text('all done')]);
    edits.delete(sessionId, -1);
    const later = append('user', [text('a prompt written after the edit')]);
    writeMemoryEdit(store, edits.take(sessionId)!, null);
    const head = stateOf(store.contextVersions.head(sessionId));
    expect(head.firstMessageId).toBe(later);
    const sent = viewMessages(buildView(store, sessionId));
    expect(JSON.stringify(sent)).not.toContain('all done');
    // The results that ended the edited part and the later prompt are sent as one user message.
    expect(sent.at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_live', content: 'script output' },
      text('a prompt written after the edit'),
    ]);
  });
});
