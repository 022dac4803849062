import { performance } from 'node:perf_hooks';
import { SessionBranching } from '../../sidecar/src/application/sessions/session-branching';
import type { NewEvent } from '../../sidecar/src/protocol';
import { Store } from '../../sidecar/src/store/store';
import { ToolCallFiles } from '../../sidecar/src/tools/tool-call-files';
import { median, ms, type Row, ratio, tempDir } from './util';

export interface BranchBenchOptions {
  turns: number;
  runs: number;
  warmup: number;
}

const SECTION = '(k) branching a session';

/**
 * A session of `turns` turns written straight through the store (each: prompt, a reply calling a tool, the
 * call, its result message, a closing reply, four events), in one transaction so filling is quick.
 */
function fill(store: Store, turns: number): { sessionId: string; lastTurnId: string } {
  const sessionId = store.sessions.create({ projectId: null, title: 'bench: branch' }).id;
  const reply = 'Here is what I found. '.repeat(8);
  let lastTurnId = '';
  store.transaction(() => {
    for (let i = 1; i <= turns; i++) {
      const turn = store.turns.create(sessionId, `req-${i}`, `question ${i}`);
      const event = (e: Record<string, unknown>) =>
        store.events.append(sessionId, { turn_id: turn.id, ...e } as unknown as NewEvent);
      event({ type: 'turn.started', ordinal: i, prompt: `question ${i}` });
      const say = (role: 'user' | 'assistant', content: Record<string, unknown>[]) =>
        store.messages.append({ sessionId, turnId: turn.id, role, content: content as never });
      say('user', [{ type: 'text', text: `question ${i}` }]);
      const asked = say('assistant', [
        { type: 'text', text: reply },
        { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } },
      ]);
      event({ type: 'message.completed', message: asked, stop_reason: 'tool_use' });
      const call = store.toolCalls.create({
        sessionId,
        turnId: turn.id,
        toolUseId: `toolu_${i}`,
        name: 'Bash',
        input: { command: `echo ${i}` },
        status: 'running',
      });
      event({
        type: 'tool.started',
        tool_call_id: call.id,
        tool_use_id: `toolu_${i}`,
        name: 'Bash',
        input: {},
      });
      store.toolCalls.finish(call.id, {
        status: 'completed',
        isError: false,
        preview: `${i}`,
        resultFile: null,
        durationMs: 1,
      });
      say('user', [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `${i}` }]);
      say('assistant', [{ type: 'text', text: `${reply}(${i})` }]);
      store.turns.finish(turn.id, 'completed');
      event({ type: 'turn.completed', usage: null });
      lastTurnId = turn.id;
    }
  });
  return { sessionId, lastTurnId };
}

/** (k) Branching at the last turn of a long session, against reading or copying its messages once. */
export async function benchBranch(options: BranchBenchOptions, log: (what: string) => void): Promise<Row[]> {
  const dataDir = tempDir('branch');
  const store = Store.open(dataDir);
  try {
    const started = performance.now();
    const { sessionId, lastTurnId } = fill(store, options.turns);
    const fillMs = performance.now() - started;
    log(`filled ${options.turns} turns in ${fillMs.toFixed(0)} ms`);
    const branching = new SessionBranching({ store, files: new ToolCallFiles(dataDir) });
    const scratch = store.sessions.create({ projectId: null, title: 'scratch' }).id;
    const copyMessages = store.db.prepare(
      `INSERT INTO messages (session_id, turn_id, role, content, internal, created_at)
       SELECT ?, NULL, role, content, internal, created_at FROM messages WHERE session_id = ? ORDER BY id`,
    );
    const times = { branch: [] as number[], select: [] as number[], copy: [] as number[] };
    let rows = 0;
    for (let i = 0; i < options.warmup + options.runs; i++) {
      let t = performance.now();
      const branch = branching.branch(sessionId, lastTurnId);
      const branchMs = performance.now() - t;
      store.sessions.delete(branch.id);

      t = performance.now();
      rows = store.messages.fromId(sessionId, null).length;
      const selectMs = performance.now() - t;

      // One INSERT…SELECT of the messages alone, rolled back.
      t = performance.now();
      store.db.exec('BEGIN');
      copyMessages.run(scratch, sessionId);
      store.db.exec('ROLLBACK');
      const copyMs = performance.now() - t;
      if (i >= options.warmup) {
        times.branch.push(branchMs);
        times.select.push(selectMs);
        times.copy.push(copyMs);
      }
    }
    const branch = median(times.branch);
    return [
      {
        section: SECTION,
        what: `branch at the last of ${options.turns} turns (${rows} messages, ${options.turns} tool calls, ${4 * options.turns} events)`,
        value: ms(branch, 1),
        reference: ms(median(times.select), 1),
        ratio: ratio(branch, median(times.select)),
        note: `median of ${options.runs}; reference: reading every message of the session (MessagesRepo.fromId)`,
      },
      {
        section: SECTION,
        what: 'the same branch',
        value: ms(branch, 1),
        reference: ms(median(times.copy), 1),
        ratio: ratio(branch, median(times.copy)),
        note: 'reference: one INSERT…SELECT copying the messages alone (rolled back)',
      },
      {
        section: SECTION,
        what: 'filling the session through the store',
        value: ms(fillMs, 0),
        note: 'one transaction',
      },
    ];
  } finally {
    store.close();
  }
}
