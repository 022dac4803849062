import fs from 'node:fs';
import path from 'node:path';
import type { ToolCall } from '../protocol';

/**
 * Where tool calls keep their files: `<data>/sessions/<session>/tool-calls/<call>/` with
 * `status.json` and `result.txt` (the full result, however large).
 */
export class ToolCallFiles {
  constructor(private readonly dataDir: string) {}

  sessionDir(sessionId: string): string {
    return path.join(this.dataDir, 'sessions', sessionId);
  }

  sessionResultsDir(sessionId: string): string {
    return path.join(this.sessionDir(sessionId), 'tool-calls');
  }

  callDir(sessionId: string, toolCallId: string): string {
    return path.join(this.sessionResultsDir(sessionId), toolCallId);
  }

  resultPath(sessionId: string, toolCallId: string): string {
    return path.join(this.callDir(sessionId, toolCallId), 'result.txt');
  }

  writeStatus(call: ToolCall): void {
    const dir = this.callDir(call.session_id, call.id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'status.json'), `${JSON.stringify(call, null, 2)}\n`);
  }

  writeResult(sessionId: string, toolCallId: string, content: string): string {
    const file = this.resultPath(sessionId, toolCallId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  }

  readResult(sessionId: string, toolCallId: string): string | null {
    try {
      return fs.readFileSync(this.resultPath(sessionId, toolCallId), 'utf8');
    } catch {
      return null;
    }
  }

  removeSession(sessionId: string): void {
    fs.rmSync(this.sessionDir(sessionId), { recursive: true, force: true });
  }
}
