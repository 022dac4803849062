import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../../config/owner-only-files';
import { CairnError } from '../../errors';
import { type Logger, silentLogger } from '../../log/logger';
import {
  CairnEvent,
  type Message,
  type Session,
  type SessionExport,
  type TurnWithDetails,
} from '../../protocol';
import { newId } from '../../store/ids';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../../tools/tool-call-files';
import { IdRemap } from './id-remap';
import { requireProject } from './session-project';

/** Extensions of the artifact types Cairn saves; anything else is kept as opaque bytes. */
const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/svg+xml': '.svg',
  'application/pdf': '.pdf',
  'text/html': '.html',
  'text/markdown': '.md',
  'text/latex': '.tex',
  'application/json': '.json',
};

/** What the journal keeps in columns, not in an event's data. */
const EVENT_COLUMNS = new Set(['type', 'seq', 'session_id', 'turn_id', 'time']);

/**
 * Brings an export back as a new session: new ids for everything (mapped inside messages and events too),
 * results and artifacts written as new files under the new session's folder (names are generated, never
 * taken from the export), the journal re-appended in order. Turns that were running come back interrupted.
 */
export class SessionImporter {
  constructor(
    private readonly deps: { store: Store; files: ToolCallFiles; conversationOnly: boolean; logger?: Logger },
  ) {}

  importSession(data: SessionExport, projectId: string | null): Session {
    const { store, files } = this.deps;
    if (projectId !== null) requireProject(store, projectId, this.deps.conversationOnly);
    const ids = new IdRemap();
    const sessionId = newId('ses');
    ids.set(data.session.id, sessionId);
    for (const turn of data.turns) {
      ids.set(turn.id, newId('trn'));
      for (const call of turn.tool_calls) {
        const newCallId = ids.set(call.id, newId('tc'));
        // A branch's calls keep their parent's folder names: paths to those name the new call's folder too.
        const folder = call.result_file?.split(/[\\/]/).at(-2);
        if (folder && folder !== call.id) ids.set(folder, newCallId);
      }
      for (const question of turn.questions) ids.set(question.id, newId('q'));
    }
    const artifacts = data.artifacts.map((a) => ({
      ...a,
      newId: ids.set(a.id, `art_${randomBytes(12).toString('base64url')}`),
    }));
    const { events, dropped } = parseEvents(data.events);
    if (dropped > 0) {
      (this.deps.logger ?? silentLogger).warn('import dropped journal lines that are not Cairn events', {
        session_id: sessionId,
        dropped,
      });
    }
    for (const event of events) {
      const execution = event.execution_id;
      if (typeof execution === 'string' && !ids.get(execution)) ids.set(execution, newId('exe'));
    }
    const sessionDir = files.sessionDir(sessionId);
    // Paths into the exporting machine's data folder, once their ids are mapped, point into this one, with
    // this system's separators (an export from Windows names C:\…\sessions\ses_…\tool-calls\…). Matched in
    // each string as it is, where a separator is one character (in JSON text a backslash is two).
    const pathPattern = new RegExp(
      `[^\\s"'\`]*[\\\\/]sessions[\\\\/]${sessionId}[\\\\/]([\\w.\\\\/-]*)`,
      'g',
    );
    const movePath = (text: string) =>
      text.replace(
        pathPattern,
        (_, rest: string) => sessionDir + path.sep + rest.split(/[\\/]/).join(path.sep),
      );
    const moved = <T>(value: T): T => ids.deep(value, movePath);

    try {
      const written = artifacts.map((a) => {
        const bytes = Buffer.from(a.data_base64, 'base64');
        const file = path.join(sessionDir, 'artifacts', a.newId + (EXTENSIONS[a.mime] ?? '.bin'));
        writeOwnerOnlyFile(file, bytes);
        return { ...a, file, bytes: bytes.length };
      });
      const results = new Map<string, string>();
      for (const [oldId, content] of Object.entries(data.tool_results)) {
        const newCallId = ids.get(oldId);
        if (newCallId) results.set(newCallId, files.writeResult(sessionId, newCallId, content));
      }
      store.transaction(() => {
        const mode = data.session.mode === 'code' && projectId === null ? 'tools' : data.session.mode;
        store.sessions.create({
          id: sessionId,
          projectId,
          title: data.session.title,
          // Never the file's: an export can carry "auto" and turns written to steer the model. Users raise it.
          approval: 'ask',
          mode,
        });
        const messageIds = new Map<number, number>();
        for (const turn of data.turns) this.importTurn(sessionId, moved(turn), results, messageIds, turn);
        for (const a of written) {
          store.artifacts.add({
            id: a.newId,
            sessionId,
            kernel: a.kernel,
            executionId: a.execution_id === null ? null : (ids.get(a.execution_id) ?? a.execution_id),
            mime: a.mime,
            bytes: a.bytes,
            path: a.file,
          });
        }
        for (const event of events) {
          const mappedEvent = moved(event);
          const data: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(mappedEvent)) if (!EVENT_COLUMNS.has(k)) data[k] = v;
          const message = data.message as Message | undefined;
          if (message && typeof message.id === 'number') {
            data.message = { ...message, id: messageIds.get(message.id) ?? message.id };
          }
          store.sessionImport.insertEvent(sessionId, {
            turn_id: typeof mappedEvent.turn_id === 'string' ? mappedEvent.turn_id : null,
            type: String(mappedEvent.type),
            time: typeof mappedEvent.time === 'string' ? mappedEvent.time : new Date().toISOString(),
            data,
          });
        }
        store.sessionImport.indexImported(sessionId);
      });
    } catch (error) {
      files.removeSession(sessionId);
      throw error;
    }
    return store.sessions.get(sessionId)!;
  }

  /** `turn` has its ids mapped already; `original` keeps the old message ids, mapped here to the new rows'. */
  private importTurn(
    sessionId: string,
    turn: TurnWithDetails,
    results: Map<string, string>,
    messageIds: Map<number, number>,
    original: TurnWithDetails,
  ): void {
    const { sessionImport } = this.deps.store;
    const unfinished = turn.status === 'running';
    sessionImport.insertTurn({
      ...turn,
      session_id: sessionId,
      status: unfinished ? 'interrupted' : turn.status,
      finished_at: unfinished ? (turn.finished_at ?? new Date().toISOString()) : turn.finished_at,
    });
    turn.messages.forEach((message, i) => {
      const id = sessionImport.insertMessage(sessionId, { ...message, turn_id: turn.id });
      const old = original.messages[i]?.id;
      if (old !== undefined) messageIds.set(old, id);
    });
    for (const call of turn.tool_calls) {
      const open = call.status === 'running' || call.status === 'waiting_approval';
      sessionImport.insertToolCall({
        ...call,
        session_id: sessionId,
        turn_id: turn.id,
        status: open ? 'interrupted' : call.status,
        result_file: results.get(call.id) ?? null,
      });
    }
    for (const question of turn.questions) {
      sessionImport.insertQuestion({
        ...question,
        session_id: sessionId,
        turn_id: turn.id,
        status: question.status === 'pending' ? 'closed' : question.status,
      });
    }
  }
}

/**
 * The journal's events. A line that is not JSON is a broken export; one that is not an event as this version
 * writes them (a shape the UI, the notebook and the Markdown export would trip on) is dropped and counted.
 */
function parseEvents(text: string): { events: Record<string, unknown>[]; dropped: number } {
  const events: Record<string, unknown>[] = [];
  let dropped = 0;
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CairnError('bad_request', `Invalid export: events line ${i + 1} is not JSON.`);
    }
    const event = CairnEvent.safeParse(value);
    if (event.success) events.push(event.data as Record<string, unknown>);
    else dropped++;
  }
  return { events, dropped };
}
