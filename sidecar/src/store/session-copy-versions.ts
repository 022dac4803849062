import type { ContextVersionRow } from './context-versions-repo';
import type { Db } from './database';
import { newId } from './ids';

interface VersionRow extends ContextVersionRow {
  /** The ordinal of the turn the version belongs to (written in it, or right after it); null: none. */
  owner_ordinal: number | null;
}

export interface VersionCopy {
  branchId: string;
  parentId: string;
  turnOrdinal: number;
  /** Rewrites file paths in stored text (the parent's folder to the branch's). */
  movePaths: (text: string) => string;
}

/**
 * Copies the parent's context versions that existed when the branch's last turn ended (those written up to
 * that turn or right after it, as the turns page places them), with message and turn ids mapped through the
 * copy's temporary maps, and makes the newest HEAD: the branch's next request sees what the parent's would
 * have seen then. Versions are few (one per compaction), so this part runs in JS.
 */
export function copyContextVersions(db: Db, copy: VersionCopy): void {
  const rows = db
    .prepare(
      `SELECT v.*, COALESCE(ot.ordinal, mt.ordinal) AS owner_ordinal FROM context_versions v
       LEFT JOIN turns ot ON ot.id = v.turn_id
       LEFT JOIN messages m ON m.id = v.upto_message_id LEFT JOIN turns mt ON mt.id = m.turn_id
       WHERE v.session_id = ? ORDER BY v.number`,
    )
    .all(copy.parentId) as VersionRow[];
  const stop = rows.findIndex((r) => r.owner_ordinal !== null && r.owner_ordinal > copy.turnOrdinal);
  const kept = stop === -1 ? rows : rows.slice(0, stop);
  const atOrAfter = db
    .prepare('SELECT new FROM temp.copy_messages WHERE old >= ? ORDER BY old LIMIT 1')
    .pluck();
  const atOrBefore = db
    .prepare('SELECT new FROM temp.copy_messages WHERE old <= ? ORDER BY old DESC LIMIT 1')
    .pluck();
  const exact = db.prepare('SELECT new FROM temp.copy_messages WHERE old = ?').pluck();
  const turnOf = db.prepare('SELECT new FROM temp.copy_turns WHERE old = ?').pluck();
  const { next } = db.prepare('SELECT COALESCE(MAX(new), 0) + 1 AS next FROM temp.copy_messages').get() as {
    next: number;
  };
  // A first message past every copied one: nothing copied is kept verbatim, what comes next is.
  const first = (id: number | null) =>
    id === null ? null : ((atOrAfter.get(id) as number | undefined) ?? next);
  const upto = (id: number | null) =>
    id === null ? null : ((atOrBefore.get(id) as number | undefined) ?? null);
  const turn = (id: string | null) => (id === null ? null : ((turnOf.get(id) as string | undefined) ?? null));
  const ids = new Map<string, string>();
  const insert = db.prepare(
    `INSERT INTO context_versions (id, session_id, number, parent_id, first_message_id, summary, reason, level,
       turn_id, tokens_before, tokens_after, cuts, kept_message_ids, upto_message_id, edited, system_addition,
       created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const row of kept) {
    const id = newId('ctx');
    ids.set(row.id, id);
    const keptIds = (JSON.parse(row.kept_message_ids ?? '[]') as number[]).flatMap((m) => {
      const mapped = exact.get(m) as number | undefined;
      return mapped === undefined ? [] : [mapped];
    });
    const cuts = (JSON.parse(row.cuts ?? '[]') as Record<string, unknown>[]).map((cut) => {
      if (cut.kind === 'block') return { ...cut, message_id: exact.get(cut.message_id) ?? cut.message_id };
      return {
        ...cut,
        from_message_id: first(cut.from_message_id as number),
        to_message_id: upto(cut.to_message_id as number) ?? cut.to_message_id,
        turn_id: turn((cut.turn_id as string | null) ?? null),
      };
    });
    const text = (value: string | null) => (value === null ? null : copy.movePaths(value));
    insert.run(
      id,
      copy.branchId,
      row.number,
      row.parent_id === null ? null : (ids.get(row.parent_id) ?? null),
      first(row.first_message_id),
      text(row.summary),
      row.reason,
      row.level,
      turn(row.turn_id),
      row.tokens_before,
      row.tokens_after,
      copy.movePaths(JSON.stringify(cuts)),
      JSON.stringify(keptIds),
      upto(row.upto_message_id),
      text(row.edited),
      row.system_addition,
      row.created_at,
    );
  }
  const head = kept.at(-1);
  if (head)
    db.prepare('UPDATE sessions SET context_head = ? WHERE id = ?').run(ids.get(head.id), copy.branchId);
}
