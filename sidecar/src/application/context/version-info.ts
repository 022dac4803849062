import { CompactionLevel, type ContextVersionInfo, StructuredSummary } from '../../protocol';
import type { ContextVersion } from '../../store/context-versions-repo';
import type { Store } from '../../store/store';

/** A stored context version as the API shows it: its parent by number, its summary parsed. */
export function versionInfo(store: Store, version: ContextVersion): ContextVersionInfo {
  const parent = version.parent_id
    ? (store.contextVersions.list(version.session_id).find((v) => v.id === version.parent_id)?.number ?? null)
    : null;
  const level = CompactionLevel.safeParse(version.level);
  return {
    number: version.number,
    parent,
    level: level.success ? level.data : null,
    reason: version.reason,
    turn_id: version.turn_id,
    tokens_before: version.tokens_before,
    tokens_after: version.tokens_after,
    after_message_id: version.upto_message_id,
    summary: parseSummary(version),
    created_at: version.created_at,
  };
}

/** The summary this version wrote: the session summary, or the newest loop/turn summary it added. */
function parseSummary(version: ContextVersion): StructuredSummary | null {
  const own = (version.cuts as { summary?: unknown; version?: number }[]).filter(
    (c) => c.summary && c.version === version.number,
  );
  const raw =
    version.level === 'session' && version.summary
      ? (JSON.parse(version.summary) as unknown)
      : own.at(-1)?.summary;
  const parsed = StructuredSummary.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
