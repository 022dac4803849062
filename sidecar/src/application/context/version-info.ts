import { CompactionLevel, type ContextVersionInfo, StructuredSummary } from '../../protocol';
import type { ContextVersion } from '../../store/context-versions-repo';
import type { Store } from '../../store/store';

/** A stored context version as the API shows it: its parent by number, its summary parsed. */
export function versionInfo(store: Store, version: ContextVersion): ContextVersionInfo {
  return versionInfos(store, [version])[0]!;
}

/** Many versions at once: each session's versions are read once for the parents' numbers, not once per version. */
export function versionInfos(store: Store, versions: readonly ContextVersion[]): ContextVersionInfo[] {
  const numbers = new Map<string, number>();
  for (const sessionId of new Set(versions.map((v) => v.session_id))) {
    for (const v of store.contextVersions.list(sessionId)) numbers.set(v.id, v.number);
  }
  return versions.map((v) => toInfo(v, numbers));
}

function toInfo(version: ContextVersion, numbers: ReadonlyMap<string, number>): ContextVersionInfo {
  const parent = version.parent_id ? (numbers.get(version.parent_id) ?? null) : null;
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
