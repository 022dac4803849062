import type { ContentBlock, Message } from '../protocol';
import type { Db } from './database';
import { now } from './ids';
import type { SearchIndex } from './search-index';

export interface MessageRow {
  id: number;
  turn_id: string | null;
  role: 'user' | 'assistant';
  content: string;
  internal: number;
  created_at: string;
}

export const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  turn_id: row.turn_id,
  role: row.role,
  content: JSON.parse(row.content) as ContentBlock[],
  internal: row.internal === 1,
  created_at: row.created_at,
});

/** The session's message history: append-only, what was said and what tools returned. */
export class MessagesRepo {
  constructor(
    private readonly db: Db,
    private readonly search: SearchIndex,
  ) {}

  /** Stores a message and indexes it for search, both or neither. */
  append(input: {
    sessionId: string;
    turnId: string | null;
    role: 'user' | 'assistant';
    content: ContentBlock[];
    internal?: boolean;
  }): Message {
    const time = now();
    return this.db.transaction(() => {
      const info = this.db
        .prepare(
          'INSERT INTO messages (session_id, turn_id, role, content, internal, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          input.sessionId,
          input.turnId,
          input.role,
          JSON.stringify(input.content),
          input.internal ? 1 : 0,
          time,
        );
      const message: Message = {
        id: Number(info.lastInsertRowid),
        turn_id: input.turnId,
        role: input.role,
        content: input.content,
        internal: input.internal ?? false,
        created_at: time,
      };
      this.search.message(input.sessionId, message);
      return message;
    })();
  }

  forTurns(turnIds: string[]): Map<string, Message[]> {
    const result = new Map<string, Message[]>();
    if (turnIds.length === 0) return result;
    const rows = this.db
      .prepare(
        `SELECT id, turn_id, role, content, internal, created_at FROM messages
         WHERE turn_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      )
      .all(JSON.stringify(turnIds)) as MessageRow[];
    for (const row of rows) {
      const list = result.get(row.turn_id!) ?? [];
      list.push(toMessage(row));
      result.set(row.turn_id!, list);
    }
    return result;
  }

  /** Messages of a session from `firstId` on (all when null), oldest first. */
  fromId(sessionId: string, firstId: number | null): Message[] {
    return (
      this.db
        .prepare(
          'SELECT id, turn_id, role, content, internal, created_at FROM messages WHERE session_id = ? AND id >= ? ORDER BY id',
        )
        .all(sessionId, firstId ?? 0) as MessageRow[]
    ).map(toMessage);
  }

  /** The session's messages with these ids, oldest first. */
  byIds(sessionId: string, ids: number[]): Message[] {
    if (ids.length === 0) return [];
    return (
      this.db
        .prepare(
          `SELECT id, turn_id, role, content, internal, created_at FROM messages
           WHERE session_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        )
        .all(sessionId, JSON.stringify(ids)) as MessageRow[]
    ).map(toMessage);
  }

  /** The session's messages up to `lastId` (all when null), from `firstId` on. */
  range(sessionId: string, firstId: number | null, lastId: number | null): Message[] {
    return (
      this.db
        .prepare(
          'SELECT id, turn_id, role, content, internal, created_at FROM messages WHERE session_id = ? AND id >= ? AND id <= ? ORDER BY id',
        )
        .all(sessionId, firstId ?? 0, lastId ?? Number.MAX_SAFE_INTEGER) as MessageRow[]
    ).map(toMessage);
  }

  last(sessionId: string): Message | null {
    const row = this.db
      .prepare(
        'SELECT id, turn_id, role, content, internal, created_at FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT 1',
      )
      .get(sessionId) as MessageRow | undefined;
    return row ? toMessage(row) : null;
  }
}
