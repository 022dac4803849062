import type { StructuredSummary } from '../protocol';
import type { Store } from '../store/store';

/**
 * A summary's new `remember` entries become the session's experiences (written by the agent), so they
 * survive every later compaction. An entry the session already has is not added twice, and one an earlier
 * summary carried (`remembered`) is not added again: a merged summary repeats it, even after it was forgotten.
 */
export function rememberFromSummary(
  store: Store,
  sessionId: string,
  turnId: string | null,
  summary: StructuredSummary,
  remembered: ReadonlySet<string> = new Set(),
): void {
  const session = store.sessions.get(sessionId);
  if (!session) return;
  const known = new Set(
    store.experiences.forSession(sessionId, session.project_id).map((e) => e.text.trim()),
  );
  for (const text of summary.remember) {
    const clean = text.trim();
    if (!clean || known.has(clean) || remembered.has(clean)) continue;
    known.add(clean);
    const experience = store.experiences.create({
      scope: 'session',
      sessionId,
      projectId: session.project_id,
      text: clean.slice(0, 4000),
      author: 'agent',
    });
    store.events.append(sessionId, { type: 'experience.added', turn_id: turnId, experience });
  }
}
