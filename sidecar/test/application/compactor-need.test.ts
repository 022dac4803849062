// The compactor in process, over a real SQLite store: what it does when the trigger and the plan disagree.
import { afterEach, describe, expect, it } from 'vitest';
import { compactorPorts } from '../../src/application/context/compactor-ports';
import { type CompactionRequest, Compactor } from '../../src/context/compactor';
import { Store } from '../../src/store/store';
import { ToolCallFiles } from '../../src/tools/tool-call-files';
import { tempDir } from '../support/harness';

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

/** One turn of `rounds` Read rounds with large results, then a new turn's prompt. */
function seed(s: Store, files: ToolCallFiles, rounds: number): { sessionId: string; turnId: string } {
  const sessionId = s.sessions.create({ projectId: null, title: 'need' }).id;
  const turn = s.turns.create(sessionId, 'r1', 'read the parts');
  s.messages.append({
    sessionId,
    turnId: turn.id,
    role: 'user',
    content: [{ type: 'text', text: 'read the parts' }],
  });
  for (let r = 1; r <= rounds; r++) {
    const toolUseId = `toolu_${r}`;
    const input = { path: `part-${r}.txt` };
    const content = `part ${r}: ${'a line of a large file that is read in full\n'.repeat(180)}`;
    s.messages.append({
      sessionId,
      turnId: turn.id,
      role: 'assistant',
      content: [{ type: 'tool_use', id: toolUseId, name: 'Read', input }],
    });
    const call = s.toolCalls.create({
      sessionId,
      turnId: turn.id,
      toolUseId,
      name: 'Read',
      input,
      status: 'running',
    });
    s.toolCalls.finish(call.id, {
      status: 'completed',
      isError: false,
      preview: content.slice(0, 100),
      resultFile: files.writeResult(sessionId, call.id, content),
      durationMs: 1,
    });
    s.messages.append({
      sessionId,
      turnId: turn.id,
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content }],
    });
  }
  s.messages.append({
    sessionId,
    turnId: turn.id,
    role: 'assistant',
    content: [{ type: 'text', text: 'Read.' }],
  });
  s.turns.finish(turn.id, 'completed');
  const next = s.turns.create(sessionId, 'r2', 'compare them');
  s.messages.append({
    sessionId,
    turnId: next.id,
    role: 'user',
    content: [{ type: 'text', text: 'compare them' }],
  });
  return { sessionId, turnId: next.id };
}

describe('the compactor', () => {
  it('cuts the cheapest level even when its own estimate is already under the target', async () => {
    const dataDir = tempDir('compactor-need');
    store = Store.open(dataDir);
    const files = new ToolCallFiles(dataDir);
    const { sessionId, turnId } = seed(store, files, 8);
    let summaryCalls = 0;
    const request: CompactionRequest = {
      sessionId,
      turnId,
      reason: 'threshold',
      level: 'auto',
      // The trigger counted more than the plan does (the API's count against Cairn's estimate): the
      // plan's need is below zero. The cheapest cut that makes progress is still the right one.
      budget: { overhead: 0, usable: 20_000, target: 60_000, threshold: 60_000, scale: 1 },
      summarize: async () => {
        summaryCalls++;
        throw new Error('no summary is needed for a block cut');
      },
      signal: new AbortController().signal,
    };
    const result = await new Compactor(compactorPorts(store, files)).compact(request);
    expect(result.level).toBe('block');
    expect(summaryCalls).toBe(0);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore * 0.9);
    // Oldest first, and no more than it takes.
    expect(store.contextVersions.head(sessionId)!.cuts.length).toBeLessThan(8);
  });

  it('writes the live kernels’ variables into a Session summary, credentials redacted', async () => {
    const dataDir = tempDir('compactor-kernels');
    store = Store.open(dataDir);
    const files = new ToolCallFiles(dataDir);
    const { sessionId, turnId } = seed(store, files, 3);
    const compactor = new Compactor({
      ...compactorPorts(store, files),
      kernelVariables: async () => [
        { kernel: 'python', name: 'df', type: 'DataFrame', repr: '3 rows × 2 columns' },
        { kernel: 'python', name: 'key', type: 'str', repr: "'sk-ant-api03-abcdefghijklmnop'" },
      ],
    });
    const given = {
      goal: 'g',
      instruction: '',
      discoveries: [],
      completed: [],
      current_status: 's',
      likely_next_work: [],
      relevant_files_directories: [],
      remember: [],
    };
    const result = await compactor.compact({
      sessionId,
      turnId,
      reason: 'agent',
      level: 'session',
      given,
      budget: { overhead: 0, usable: 20_000, target: null, scale: 1 },
      summarize: async () => {
        throw new Error('the agent gave the summary');
      },
      signal: new AbortController().signal,
    });
    expect(result.summary?.kernel_variables).toEqual([
      { kernel: 'python', name: 'df', type: 'DataFrame', repr: '3 rows × 2 columns' },
      { kernel: 'python', name: 'key', type: 'str', repr: "'[REDACTED]'" },
    ]);
    expect(store.contextVersions.head(sessionId)!.summary).not.toContain('sk-ant');
  });
});
