import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchService } from '../../src/application/search/search-service';
import { SessionBranching } from '../../src/application/sessions/session-branching';
import { ToolCallService } from '../../src/application/turns/tool-call-service';
import { stateOf } from '../../src/context/context-state';
import { buildView, viewMessages } from '../../src/context/context-view';
import type { Session } from '../../src/protocol';
import { Store } from '../../src/store/store';
import { ToolCallFiles } from '../../src/tools/tool-call-files';
import { allFiles } from '../support/data-files';
import { PNG_BYTES, type RichTurn, richTurn } from '../support/rich-session';

const summary = (goal: string) =>
  JSON.stringify({
    goal,
    instruction: '',
    discoveries: [],
    completed: [],
    current_status: '',
    likely_next_work: [],
    relevant_files_directories: [],
    remember: [],
  });

let dir: string;
let store: Store;
let files: ToolCallFiles;
let branching: SessionBranching;
let parent: Session;
let turns: RichTurn[];

/** Every row of a session, for "the parent is untouched". */
function snapshot(sessionId: string): unknown {
  const tables = ['turns', 'messages', 'tool_calls', 'questions', 'events', 'context_versions', 'artifacts'];
  const rows = Object.fromEntries(
    tables.map((t) => [
      t,
      store.db
        .prepare(`SELECT * FROM ${t} WHERE session_id = ? ORDER BY ${t === 'events' ? 'seq' : 'rowid'}`)
        .all(sessionId),
    ]),
  );
  const session = store.db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId);
  const dataFiles = allFiles(files.sessionDir(sessionId)).map((f) => [f, fs.readFileSync(f, 'utf8')]);
  return { rows, session, dataFiles };
}

/** The messages the model would be sent, with the session's own folder written neutrally. */
function modelView(
  sessionId: string,
  version = store.contextVersions.head(sessionId),
  upto: number | null = null,
) {
  const text = JSON.stringify(viewMessages(buildView(store, sessionId, stateOf(version), upto)));
  return text.split(JSON.stringify(files.sessionDir(sessionId)).slice(1, -1)).join('<session>');
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-branch-'));
  store = Store.open(dir);
  files = new ToolCallFiles(dir);
  branching = new SessionBranching({ store, files });
  const project = store.projects.upsertByPath(dir);
  parent = store.sessions.update(store.sessions.create({ projectId: project.id }).id, { title: 'Analysis' })!;
  turns = [1, 2].map((i) => richTurn(store, files, parent.id, i));
  // Compacted during turn 2: turn 1 summarised, turn 1's tool result stubbed, a system addition.
  const v1 = store.contextVersions.head(parent.id)!;
  const t2 = turns[1]!;
  store.contextVersions.create({
    sessionId: parent.id,
    parentId: v1.id,
    reason: 'threshold',
    level: 'session',
    turnId: t2.turn.id,
    tokensBefore: 100,
    tokensAfter: 40,
    firstMessageId: t2.messages[1]!.id,
    summary: summary('before turn 2'),
    cuts: [
      {
        kind: 'block',
        message_id: t2.messages[2]!.id,
        index: 0,
        chars: 100,
        tokens: 25,
        file: files.resultPath(parent.id, t2.toolCallId),
        version: 2,
      },
    ],
    keptMessageIds: [t2.messages[0]!.id],
    uptoMessageId: t2.messages[1]!.id,
    edited: null,
    systemAddition: 'be brief',
  });
  turns.push(richTurn(store, files, parent.id, 3), richTurn(store, files, parent.id, 4));
  // Compacted during turn 4, after the turn a branch at 3 ends with.
  const t4 = turns[3]!;
  store.contextVersions.create({
    sessionId: parent.id,
    parentId: store.contextVersions.head(parent.id)!.id,
    reason: 'threshold',
    level: 'session',
    turnId: t4.turn.id,
    tokensBefore: 100,
    tokensAfter: 40,
    firstMessageId: t4.messages[0]!.id,
    summary: summary('before turn 4'),
    cuts: [],
    keptMessageIds: [],
    uptoMessageId: t4.messages[0]!.id,
    edited: null,
    systemAddition: null,
  });
  store.experiences.create({
    scope: 'session',
    sessionId: parent.id,
    projectId: null,
    text: 'uses pandas',
    author: 'user',
  });
  store.permissionRules.create({
    tool: 'Bash',
    pattern: 'ls *',
    action: 'allow',
    projectId: null,
    sessionId: parent.id,
  });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('branching a session at a turn', () => {
  it('copies the history up to the turn and leaves the parent untouched', () => {
    store.sessions.setLastRequest(parent.id, { version: 3, last_message_id: 99, input_tokens: 150_000 });
    const before = snapshot(parent.id);
    const branch = branching.branch(parent.id, turns[1]!.turn.id);
    expect(snapshot(parent.id)).toEqual(before);

    expect(branch.branched_from).toEqual({ session_id: parent.id, turn_id: turns[1]!.turn.id });
    expect(branch.title).toBe('Analysis (branch)');
    // The parent's latest request measured its whole history, not the branch's.
    expect(store.sessions.lastRequest(branch.id)).toBeNull();
    expect(branch.project_id).toBe(parent.project_id);
    expect(store.sessions.branches(parent.id).map((b) => b.session_id)).toEqual([branch.id]);

    const copied = store.turns.page(branch.id, 100).turns;
    expect(copied.map((t) => [t.ordinal, t.prompt, t.status])).toEqual([
      [1, 'prompt 1', 'completed'],
      [2, 'prompt 2', 'completed'],
    ]);
    const ids = copied.map((t) => t.id);
    const messages = [...store.messages.forTurns(ids).values()].flat();
    expect(messages.map((m) => m.content)).toEqual(
      turns
        .slice(0, 2)
        .flatMap((t) => t.messages.map((m) => m.content))
        .map((content) =>
          JSON.parse(
            JSON.stringify(content)
              .split(files.sessionResultsDir(parent.id))
              .join(files.sessionResultsDir(branch.id)),
          ),
        ),
    );
    expect(messages.every((m) => !turns.some((t) => t.messages.some((p) => p.id === m.id)))).toBe(true);

    // Results are copies under the branch's folder, readable after the parent is gone.
    const calls = [...store.toolCalls.forTurns(ids).values()].flat();
    expect(calls).toHaveLength(2);
    const toolCalls = new ToolCallService({ store, files });
    for (const call of calls)
      expect(call.result_file!.startsWith(files.sessionDir(branch.id) + path.sep)).toBe(true);
    store.sessions.delete(parent.id);
    files.removeSession(parent.id);
    expect(calls.map((c) => toolCalls.get(c.id).result)).toEqual([
      `result 1\n`.repeat(20),
      `result 2\n`.repeat(20),
    ]);

    const questions = [...store.questions.forTurns(ids).values()].flat();
    expect(questions.map((q) => [q.question, q.answer, q.tool_call_id])).toEqual([
      ['Which one?', 'a', calls[1]!.id],
    ]);
    expect(
      store.db.prepare('SELECT text FROM experiences WHERE session_id = ?').pluck().all(branch.id),
    ).toEqual(['uses pandas']);
    expect(
      store.db.prepare('SELECT pattern FROM permission_rules WHERE session_id = ?').pluck().all(branch.id),
    ).toEqual(['ls *']);
  });

  it('brings a call still running in the parent over interrupted, its pending question closed', () => {
    const t2 = turns[1]!.turn;
    const call = store.toolCalls.create({
      sessionId: parent.id,
      turnId: t2.id,
      toolUseId: 'toolu_bg',
      name: 'Bash',
      input: { command: 'sleep 100' },
      status: 'waiting_approval',
      background: true,
    });
    store.questions.create({
      sessionId: parent.id,
      turnId: t2.id,
      toolCallId: call.id,
      kind: 'approval',
      question: 'allow rm?',
      options: null,
      tool: null,
    });
    const branch = branching.branch(parent.id, t2.id);
    const ids = store.turns.page(branch.id, 10).turns.map((t) => t.id);
    const calls = [...store.toolCalls.forTurns(ids).values()].flat();
    expect(calls.map((c) => c.status)).toEqual(['completed', 'completed', 'interrupted']);
    expect(store.toolCalls.background(branch.id, 100).filter((c) => c.status === 'running')).toEqual([]);
    const questions = [...store.questions.forTurns(ids).values()].flat();
    expect(questions.map((q) => [q.question, q.status])).toEqual([
      ['Which one?', 'answered'],
      ['allow rm?', 'closed'],
    ]);
    expect(store.questions.pending(branch.id)).toEqual([]);
    // The parent's own call still runs there.
    expect(store.toolCalls.get(call.id)!.status).toBe('waiting_approval');
  });

  it('copies no file a symlink in the parent points at, outside its folder', () => {
    const secret = path.join(dir, 'secret.txt');
    fs.writeFileSync(secret, 'TOP SECRET KEY');
    const artifact = store.artifacts.forSession(parent.id)[0]!;
    fs.rmSync(artifact.path);
    fs.symlinkSync(secret, artifact.path);
    const resultDir = path.dirname(store.toolCalls.get(turns[0]!.toolCallId)!.result_file!);
    fs.symlinkSync(secret, path.join(resultDir, 'planted.txt'));
    const branch = branching.branch(parent.id, turns[0]!.turn.id);
    expect(store.artifacts.forSession(branch.id)).toEqual([]);
    const copied = allFiles(files.sessionDir(branch.id));
    expect(copied.some((f) => f.endsWith('planted.txt'))).toBe(false);
    expect(copied.map((f) => fs.readFileSync(f, 'utf8')).join('')).not.toContain('TOP SECRET');
    expect(copied.some((f) => f.endsWith('result.txt'))).toBe(true);
  });

  it("gives a copied call's progress the copy's id", () => {
    const callId = turns[0]!.toolCallId;
    store.events.append(parent.id, {
      type: 'tool.progress',
      turn_id: turns[0]!.turn.id,
      tool_call_id: callId,
      progress: 1,
      total: 2,
      message: 'half way',
    });
    const branch = branching.branch(parent.id, turns[1]!.turn.id);
    const callIds = new Set(
      store.db.prepare('SELECT id FROM tool_calls WHERE session_id = ?').pluck().all(branch.id),
    );
    const progress = store.events.after(branch.id, 0).filter((e) => e.type === 'tool.progress') as {
      tool_call_id: string;
      message: string | null;
    }[];
    expect(progress).toHaveLength(1);
    expect(progress[0]!.tool_call_id).not.toBe(callId);
    expect(callIds.has(progress[0]!.tool_call_id)).toBe(true);
    expect(progress[0]!.message).toBe('half way');
  });

  it("copies the journal of those turns with the copies' ids", () => {
    const branch = branching.branch(parent.id, turns[1]!.turn.id);
    const events = store.events.after(branch.id, 0);
    const turnIds = new Set(store.turns.page(branch.id, 10).turns.map((t) => t.id));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(store.events.lastSeq(branch.id)).toBe(events.length);
    expect(events.every((e) => e.turn_id !== null && turnIds.has(e.turn_id))).toBe(true);
    expect(events.filter((e) => e.type === 'turn.completed')).toHaveLength(2);
    const callIds = new Set(
      store.db.prepare('SELECT id FROM tool_calls WHERE session_id = ?').pluck().all(branch.id),
    );
    const started = events.filter((e) => e.type === 'tool.started');
    expect(started.every((e) => callIds.has((e as { tool_call_id: string }).tool_call_id))).toBe(true);
    const messageIds = new Set(
      store.db.prepare('SELECT id FROM messages WHERE session_id = ?').pluck().all(branch.id),
    );
    const completed = events.filter((e) => e.type === 'message.completed') as {
      message: { id: number; turn_id: string };
    }[];
    expect(completed.every((e) => messageIds.has(e.message.id) && turnIds.has(e.message.turn_id))).toBe(true);
    const asked = events.find((e) => e.type === 'question.required');
    const answered = events.find((e) => e.type === 'question.answered');
    if (asked?.type !== 'question.required' || answered?.type !== 'question.answered')
      throw new Error('no question');
    expect(store.questions.get(asked.question.id)).toEqual({
      ...asked.question,
      status: 'answered',
      answer: 'a',
      answered_at: expect.any(String),
    });
    expect(answered.question_id).toBe(asked.question.id);
    // The cells' images are the branch's own copies.
    const shown = events.flatMap((e) => (e.type === 'kernel.display' ? e.artifacts.map((a) => a.id) : []));
    expect(shown).toHaveLength(2);
    for (const id of shown) {
      const artifact = store.artifacts.get(id)!;
      expect(artifact.sessionId).toBe(branch.id);
      expect(artifact.path.startsWith(files.sessionDir(branch.id) + path.sep)).toBe(true);
      expect(fs.readFileSync(artifact.path)).toEqual(PNG_BYTES);
    }
    // Each turn's page of events (the UI's) is the parent's, turn for turn.
    for (const [i, turn] of store.turns.page(branch.id, 10).turns.entries()) {
      expect(store.events.forTurn(branch.id, turn.id).map((e) => e.type)).toEqual(
        store.events.forTurn(parent.id, turns[i]!.turn.id).map((e) => e.type),
      );
    }
  });

  it("sees the context the parent's model saw after the turn, compacted before it or after it", () => {
    const versions = store.contextVersions.list(parent.id);
    const expected: [number, number][] = [
      [0, 1], // before any compaction
      [1, 2], // compacted during turn 2
      [2, 2], // compacted during turn 4: not yet
      [3, 3],
    ];
    for (const [turnIndex, versionNumber] of expected) {
      const turn = turns[turnIndex]!;
      const branch = branching.branch(parent.id, turn.turn.id);
      const head = store.contextVersions.head(branch.id)!;
      expect(head.number).toBe(versionNumber);
      const atTurn = modelView(parent.id, versions[versionNumber - 1]!, turn.messages.at(-1)!.id);
      expect(modelView(branch.id)).toEqual(atTurn);
      expect(head.system_addition).toBe(versions[versionNumber - 1]!.system_addition);
    }
  });

  it('makes the branch searchable on its own, the parent keeping its hits', () => {
    const search = new SearchService(store);
    const branch = branching.branch(parent.id, turns[2]!.turn.id);
    const hits = (sessionId: string, q: string) =>
      search
        .search({ q, session_id: sessionId, limit: 100 })
        .hits.map((h) => `${h.kind}:${h.snippet}`)
        .sort();
    expect(hits(branch.id, 'prompt')).toEqual(['message:prompt 1', 'message:prompt 2', 'message:prompt 3']);
    expect(hits(parent.id, 'prompt')).toHaveLength(4);
    // Kernel cells keep their execution ids in a branch: each session has its own document.
    expect(hits(branch.id, 'print')).toEqual([
      'kernel_cell:print(1)',
      'kernel_cell:print(2)',
      'kernel_cell:print(3)',
    ]);
    expect(hits(parent.id, 'print')).toHaveLength(4);
    expect(hits(branch.id, 'echo').filter((h) => h.startsWith('tool_call:'))).toHaveLength(3);
  });

  it('branches a branch, and refuses what cannot be branched', () => {
    const first = branching.branch(parent.id, turns[2]!.turn.id);
    const firstTurns = store.turns.page(first.id, 10).turns;
    const second = branching.branch(first.id, firstTurns[1]!.id);
    expect(second.branched_from).toEqual({ session_id: first.id, turn_id: firstTurns[1]!.id });
    expect(store.turns.page(second.id, 10).turns.map((t) => t.prompt)).toEqual(['prompt 1', 'prompt 2']);
    // A branch's calls keep their parent's folder names: a branch of it copies those folders.
    const secondCalls = store.db
      .prepare('SELECT id FROM tool_calls WHERE session_id = ? ORDER BY rowid')
      .pluck()
      .all(second.id) as string[];
    const toolCalls = new ToolCallService({ store, files });
    expect(secondCalls.map((id) => toolCalls.get(id).result)).toEqual([
      `result 1\n`.repeat(20),
      `result 2\n`.repeat(20),
    ]);
    expect(modelView(second.id)).toEqual(
      modelView(
        first.id,
        store.contextVersions.head(first.id),
        store.messages.forTurns([firstTurns[1]!.id]).get(firstTurns[1]!.id)!.at(-1)!.id,
      ),
    );

    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as { code: string }).code;
      }
      return 'none';
    };
    expect(code(() => branching.branch('ses_missing', turns[0]!.turn.id))).toBe('not_found');
    expect(code(() => branching.branch(parent.id, 'trn_missing'))).toBe('not_found');
    expect(code(() => branching.branch(first.id, turns[0]!.turn.id))).toBe('not_found');
    const running = store.turns.create(parent.id, 'req-running', 'still going');
    expect(code(() => branching.branch(parent.id, running.id))).toBe('turn_running');
    const fork = store.sessions.create({
      projectId: parent.project_id,
      fork: { parentSessionId: parent.id, parentTurnId: turns[0]!.turn.id, task: 't', tools: null },
    });
    const forkTurn = store.turns.create(fork.id, 'req-f', 'task');
    store.turns.finish(forkTurn.id, 'completed');
    expect(code(() => branching.branch(fork.id, forkTurn.id))).toBe('bad_request');
    // Nothing half-made was left by the refusals.
    expect(store.sessions.branches(parent.id)).toHaveLength(1);
  });
});
