import type { CairnEvent, Experience, Session } from '../../../sidecar/src/protocol';

/** Whether a session sees an experience: its own, or one of its project's. */
export function seenBy(session: Pick<Session, 'id' | 'project_id'>, experience: Experience): boolean {
  if (experience.scope === 'session') return experience.session_id === session.id;
  return experience.project_id !== null && experience.project_id === session.project_id;
}

/** The list after one live event: added and updated ones kept in creation order, moved-away ones dropped. */
export function applyExperienceEvent(
  session: Pick<Session, 'id' | 'project_id'>,
  list: readonly Experience[],
  event: CairnEvent,
): readonly Experience[] {
  if (event.type === 'experience.removed') return list.filter((e) => e.id !== event.experience_id);
  if (event.type !== 'experience.added' && event.type !== 'experience.updated') return list;
  return upsert(session, list, event.experience);
}

/** Puts one experience in the list (or takes it out when the session no longer sees it). */
export function upsert(
  session: Pick<Session, 'id' | 'project_id'>,
  list: readonly Experience[],
  experience: Experience,
): readonly Experience[] {
  const others = list.filter((e) => e.id !== experience.id);
  if (!seenBy(session, experience)) return others;
  return [...others, experience].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
}
