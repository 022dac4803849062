import fs from 'node:fs';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../config/owner-only-files';
import type { ToolCall } from '../protocol';
import { PROCESS_RECORD_FILE } from './process-record';

/**
 * Where tool calls keep their files: `<data>/sessions/<session>/tool-calls/<call>/` with
 * `status.json`, `result.txt` (the full result, however large) and, while a process it started runs,
 * `process.json` (see process-record.ts).
 */
export class ToolCallFiles {
  constructor(private readonly dataDir: string) {}

  sessionDir(sessionId: string): string {
    return path.join(this.dataDir, 'sessions', sessionId);
  }

  sessionResultsDir(sessionId: string): string {
    return path.join(this.sessionDir(sessionId), 'tool-calls');
  }

  /**
   * Where a Write keeps the text it replaced: beside the session's results, never inside them, since the
   * results folder is writable from a project's sandbox and the sidecar must not write or read through
   * links planted there.
   */
  replacedTextDir(sessionId: string): string {
    return path.join(this.sessionDir(sessionId), 'replaced-text');
  }

  callDir(sessionId: string, toolCallId: string): string {
    return path.join(this.sessionResultsDir(sessionId), toolCallId);
  }

  resultPath(sessionId: string, toolCallId: string): string {
    return path.join(this.callDir(sessionId, toolCallId), 'result.txt');
  }

  /** Where the record of the process a running call started is kept. */
  processRecordPath(sessionId: string, toolCallId: string): string {
    return path.join(this.callDir(sessionId, toolCallId), PROCESS_RECORD_FILE);
  }

  writeStatus(call: ToolCall): void {
    const file = path.join(this.callDir(call.session_id, call.id), 'status.json');
    writeOwnerOnlyFile(file, `${JSON.stringify(call, null, 2)}\n`);
  }

  writeResult(sessionId: string, toolCallId: string, content: string): string {
    const file = this.resultPath(sessionId, toolCallId);
    writeOwnerOnlyFile(file, content);
    return file;
  }

  /** A long text block compacted out of the context, kept where Read can bring it back. */
  writeCompactedBlock(sessionId: string, messageId: number, index: number, text: string): string {
    const file = path.join(
      this.sessionResultsDir(sessionId),
      'compacted',
      `message-${messageId}-${index}.txt`,
    );
    writeOwnerOnlyFile(file, text);
    return file;
  }

  readResult(sessionId: string, toolCallId: string): string | null {
    try {
      return fs.readFileSync(this.resultPath(sessionId, toolCallId), 'utf8');
    } catch {
      return null;
    }
  }

  /**
   * A finished call's folder: where its result file is (a branch's copied calls keep their parent's folder
   * names under the branch's folder), else the one named by its id.
   */
  folderOf(call: Pick<ToolCall, 'session_id' | 'id' | 'result_file'>): string {
    return call.result_file ? path.dirname(call.result_file) : this.callDir(call.session_id, call.id);
  }

  /** A call's full result, read where its row says it is. */
  readResultOf(call: Pick<ToolCall, 'session_id' | 'id' | 'result_file'>): string | null {
    try {
      return fs.readFileSync(call.result_file ?? this.resultPath(call.session_id, call.id), 'utf8');
    } catch {
      return null;
    }
  }

  removeSession(sessionId: string): void {
    try {
      // Windows: an indexer or antivirus may hold a file for a moment.
      fs.rmSync(this.sessionDir(sessionId), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      // The rows are gone already; a folder left behind holds no secret and is harmless.
    }
  }
}
