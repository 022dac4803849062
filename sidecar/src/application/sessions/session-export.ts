import fs from 'node:fs';
import { VERSION } from '../../config/version';
import { CairnError, notFound } from '../../errors';
import type { ExportedArtifact, SessionExport, TurnWithDetails } from '../../protocol';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../../tools/tool-call-files';
import { listTurnPage } from '../turns/turn-history';
import { renderMarkdown } from './export-markdown';
import { realFileInside } from './real-file-inside';

/** The most an export may hold (and an import take): the JSON is built in memory, and sent in one piece. */
export const EXPORT_LIMIT_BYTES = 256 * 1024 * 1024;
const TURN_PAGE = 500;

/** A session's whole record: turns with their details, each call's full result, artifacts' bytes, the journal. */
export class SessionExporter {
  constructor(private readonly deps: { store: Store; files: ToolCallFiles }) {}

  /** The readable form, and the file name to save it as. */
  markdown(sessionId: string): { filename: string; text: string } {
    const { store, files } = this.deps;
    const session = store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    const turns = allTurns(store, sessionId);
    const results = new Map<string, string>();
    for (const call of turns.flatMap((t) => t.tool_calls)) {
      const result = files.readResultOf(call);
      if (result !== null) results.set(call.id, result);
    }
    const kernelEvents = store.events.withTypePrefix(sessionId, 'kernel.');
    return {
      filename: fileName(session.title, 'md'),
      text: renderMarkdown({ session, turns, results, kernelEvents }),
    };
  }

  json(sessionId: string): SessionExport {
    const { store, files } = this.deps;
    const session = store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    const budget = new Budget(sessionId);
    const turns = allTurns(store, sessionId);
    const toolResults: Record<string, string> = {};
    for (const call of turns.flatMap((t) => t.tool_calls)) {
      const result = files.readResultOf(call);
      if (result === null) continue;
      budget.spend(result.length);
      toolResults[call.id] = result;
    }
    const artifacts: ExportedArtifact[] = [];
    for (const record of store.artifacts.forSession(sessionId)) {
      // Rows are Cairn's own; still, only files under the session's folder are read.
      const real = realFileInside(record.path, files.sessionDir(sessionId));
      if (!real) continue;
      const data = fs.readFileSync(real).toString('base64');
      budget.spend(data.length);
      artifacts.push({
        id: record.id,
        kernel: record.kernel,
        execution_id: record.executionId,
        mime: record.mime,
        data_base64: data,
      });
    }
    const lines: string[] = [];
    for (let after = 0; ; ) {
      const page = store.events.after(sessionId, after, 10_000);
      for (const event of page) {
        const line = JSON.stringify(event);
        budget.spend(line.length);
        lines.push(line);
      }
      if (page.length < 10_000) break;
      after = page.at(-1)!.seq;
    }
    return {
      format: 'cairn.session',
      version: 1,
      exported_at: new Date().toISOString(),
      cairn_version: VERSION,
      session: {
        id: session.id,
        title: session.title,
        approval: session.approval,
        mode: session.mode,
        created_at: session.created_at,
        branched_from: session.branched_from,
      },
      turns,
      tool_results: toolResults,
      artifacts,
      events: lines.length > 0 ? `${lines.join('\n')}\n` : '',
    };
  }
}

/** A safe file name for a download: the title's letters and digits, or the word session. */
export function fileName(title: string, ext: string): string {
  const base =
    title
      .replace(/[^A-Za-z0-9._ -]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'session';
  return `${base}.${ext}`;
}

/** Every turn of a session with its details, oldest first. */
export function allTurns(store: Store, sessionId: string): TurnWithDetails[] {
  const pages: TurnWithDetails[][] = [];
  let before: number | undefined;
  do {
    const page = listTurnPage(store, sessionId, TURN_PAGE, before);
    pages.unshift(page.turns);
    before = page.next_before ?? undefined;
  } while (before !== undefined);
  return pages.flat();
}

/** Counts what an export holds so far, and stops it past the limit with a message saying what to do. */
class Budget {
  private used = 0;
  constructor(private readonly sessionId: string) {}

  spend(chars: number): void {
    this.used += chars;
    if (this.used > EXPORT_LIMIT_BYTES) {
      throw new CairnError(
        'bad_request',
        `Session ${this.sessionId} is too large to export as JSON (over ${EXPORT_LIMIT_BYTES / 1024 / 1024} MB of results, artifacts and events): export it as Markdown (format=md) instead.`,
      );
    }
  }
}
