import path from 'node:path';
import { writeOwnerOnlyFile } from '../../src/config/owner-only-files';
import type { Message, NewEvent, Turn } from '../../src/protocol';
import type { Store } from '../../src/store/store';
import type { ToolCallFiles } from '../../src/tools/tool-call-files';

/** A 1×1 PNG: what a kernel's plot would save. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export interface RichTurn {
  turn: Turn;
  messages: Message[];
  toolCallId: string;
}

const append = (store: Store, sessionId: string, event: Record<string, unknown>) =>
  store.events.append(sessionId, event as unknown as NewEvent);

/**
 * Writes one finished turn as the runtime would: prompt, an assistant reply calling Bash, the call with its
 * result file, the tool result naming that file, a closing reply, and the journal's events; turn 2 also
 * asks a question, every turn runs a kernel cell whose display saved an image.
 */
export function richTurn(store: Store, files: ToolCallFiles, sessionId: string, i: number): RichTurn {
  return store.transaction(() => {
    const turn = store.turns.create(sessionId, `req-${i}`, `prompt ${i}`);
    append(store, sessionId, { type: 'turn.started', turn_id: turn.id, ordinal: i, prompt: `prompt ${i}` });
    const say = (role: 'user' | 'assistant', content: Record<string, unknown>[]) => {
      const message = store.messages.append({ sessionId, turnId: turn.id, role, content: content as never });
      if (role === 'assistant') {
        append(store, sessionId, { type: 'message.completed', turn_id: turn.id, message, stop_reason: null });
      }
      return message;
    };
    const input = { command: `echo ${i}` };
    const m1 = say('user', [{ type: 'text', text: `prompt ${i}` }]);
    const m2 = say('assistant', [
      { type: 'text', text: `answer ${i}` },
      { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input },
    ]);
    const call = store.toolCalls.create({
      sessionId,
      turnId: turn.id,
      toolUseId: `toolu_${i}`,
      name: 'Bash',
      input,
      status: 'running',
    });
    append(store, sessionId, {
      type: 'tool.started',
      turn_id: turn.id,
      tool_call_id: call.id,
      tool_use_id: `toolu_${i}`,
      name: 'Bash',
      input,
      status: 'running',
      parent_tool_call_id: null,
      background: false,
    });
    const file = files.writeResult(sessionId, call.id, `result ${i}\n`.repeat(20));
    store.toolCalls.finish(call.id, {
      status: 'completed',
      isError: false,
      preview: `result ${i}`,
      resultFile: file,
      durationMs: 3,
    });
    const m3 = say('user', [
      { type: 'tool_result', tool_use_id: `toolu_${i}`, content: `result ${i} (in full: ${file})` },
    ]);
    if (i === 2) {
      const q = store.questions.create({
        sessionId,
        turnId: turn.id,
        toolCallId: call.id,
        kind: 'question',
        question: 'Which one?',
        options: ['a', 'b'],
        tool: null,
      });
      append(store, sessionId, { type: 'question.required', turn_id: turn.id, question: q });
      store.questions.answer(q.id, 'a');
      append(store, sessionId, {
        type: 'question.answered',
        turn_id: turn.id,
        question_id: q.id,
        answer: 'a',
      });
    }
    kernelCell(store, files, sessionId, turn.id, call.id, i);
    const m4 = say('assistant', [{ type: 'text', text: `done ${i}` }]);
    store.turns.finish(turn.id, 'completed');
    append(store, sessionId, { type: 'turn.completed', turn_id: turn.id, usage: null });
    return { turn: store.turns.get(turn.id)!, messages: [m1, m2, m3, m4], toolCallId: call.id };
  });
}

function kernelCell(
  store: Store,
  files: ToolCallFiles,
  sessionId: string,
  turnId: string,
  toolCallId: string,
  i: number,
): void {
  const executionId = `exe_${sessionId}_${i}`;
  const artifactId = `art_${sessionId.slice(4)}x${i}`;
  const file = path.join(files.sessionDir(sessionId), 'artifacts', `${artifactId}.png`);
  writeOwnerOnlyFile(file, PNG_BYTES);
  store.artifacts.add({
    id: artifactId,
    sessionId,
    kernel: 'default',
    executionId,
    mime: 'image/png',
    bytes: PNG_BYTES.length,
    path: file,
  });
  const base = { turn_id: turnId, kernel: 'default', execution_id: executionId };
  append(store, sessionId, {
    ...base,
    type: 'kernel.execution_started',
    code: `print(${i})`,
    tool_call_id: toolCallId,
  });
  append(store, sessionId, { ...base, type: 'kernel.stream', stream: 'stdout', text: `${i}\n` });
  append(store, sessionId, {
    ...base,
    type: 'kernel.display',
    text: '<Figure>',
    artifacts: [{ id: artifactId, mime: 'image/png', bytes: PNG_BYTES.length }],
  });
}
