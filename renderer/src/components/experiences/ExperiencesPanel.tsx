import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { CairnEvent, Experience, ExperienceScope } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { applyExperienceEvent, upsert } from '../../state/experiences-view';
import { type EventSource, messageOf } from '../../state/session-controller';
import { ExperienceForm } from './ExperienceForm';
import { ExperienceRow } from './ExperienceRow';
import '../../i18n/messages/context-panel';

/**
 * The session's experiences in the side panel: this session's and its project's, kept live from
 * experience.* events whoever changed them (the agent, this window or another).
 */
export function ExperiencesPanel(props: {
  client: CairnClient;
  source: EventSource & { whenStarted?(): Promise<void> };
  sessionId: string;
  projectId: string | null;
}) {
  const { client, source, sessionId, projectId } = props;
  const t = useT();
  const session = useMemo(() => ({ id: sessionId, project_id: projectId }), [sessionId, projectId]);
  const [list, setList] = useState<readonly Experience[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const alive = useRef(true);
  // Deleted here or elsewhere: a late answer to an edit must not bring one back.
  const removed = useRef(new Set<string>());

  useEffect(() => {
    alive.current = true;
    let live = true;
    // Events seen before the list arrives are applied on top of it, so none is lost in between.
    const early: CairnEvent[] = [];
    let loaded = false;
    const off = source.listen((event) => {
      if (!event.type.startsWith('experience.')) return;
      if (event.type === 'experience.removed') removed.current.add(event.experience_id);
      if (!loaded) early.push(event);
      else setList((current) => applyExperienceEvent(session, current ?? [], event));
    });
    // Read once the session's live subscription is made, so every later change reaches this list.
    void (source.whenStarted?.() ?? Promise.resolve())
      .then(() => client.sessionExperiences(session.id))
      .then(
        (experiences) => {
          if (!live) return;
          loaded = true;
          setList(
            early.reduce<readonly Experience[]>((l, e) => applyExperienceEvent(session, l, e), experiences),
          );
        },
        (e: unknown) => {
          if (live) setError(messageOf(e));
        },
      );
    return () => {
      live = false;
      alive.current = false;
      off();
    };
  }, [client, source, session]);

  /** Runs one change; the answer is applied at once (its event, when it comes, changes nothing more). */
  const run = useCallback(
    async (change: () => Promise<Experience | null>, removedId?: string) => {
      setError(null);
      try {
        const changed = await change();
        if (!alive.current) return true;
        if (removedId) removed.current.add(removedId);
        setList((current) => {
          const base = current ?? [];
          if (removedId) return base.filter((e) => e.id !== removedId);
          return changed && !removed.current.has(changed.id) ? upsert(session, base, changed) : base;
        });
        return true;
      } catch (e) {
        if (alive.current) setError(messageOf(e));
        return false;
      }
    },
    [session],
  );

  const add = (text: string, scope: ExperienceScope) =>
    run(() => client.addExperience(session.id, { text, scope }));
  const update = (experience: Experience, patch: { text?: string; scope?: ExperienceScope }) =>
    run(() =>
      client.updateExperience(experience.id, {
        ...patch,
        ...(patch.scope === 'session' ? { session_id: session.id } : {}),
      }),
    );
  const remove = (experience: Experience) =>
    run(async () => {
      await client.deleteExperience(experience.id);
      return null;
    }, experience.id);

  return (
    <details className="panel-section experiences-panel" open>
      <summary>
        <h2>{t('experiences.title')}</h2>
        {list && <span className="muted">{t('experiences.count', { count: list.length })}</span>}
      </summary>
      <p className="muted">{t('experiences.hint')}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {list && list.length === 0 && <p className="muted">{t('experiences.empty')}</p>}
      <ul className="experiences-list">
        {(list ?? []).map((experience) => (
          <ExperienceRow
            key={experience.id}
            experience={experience}
            projectScope={projectId !== null}
            onSave={(text) => update(experience, { text })}
            onMove={(scope) => update(experience, { scope })}
            onDelete={() => remove(experience)}
          />
        ))}
      </ul>
      <ExperienceForm projectScope={projectId !== null} onAdd={add} />
    </details>
  );
}
