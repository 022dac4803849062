import { useCallback, useEffect, useRef, useState } from 'react';
import type { Experience, ExperienceScope, Session } from '../../../../sidecar/src/protocol';
import type { CairnClient } from '../../api/http-client';
import { useT } from '../../i18n/i18n';
import { applyExperienceEvent, upsert } from '../../state/experiences-view';
import { messageOf } from '../../state/session-controller';
import type { SessionEvents } from '../../state/use-context-info';
import { ExperienceForm } from './ExperienceForm';
import { ExperienceRow } from './ExperienceRow';

/**
 * The session's experiences in the side panel: this session's and its project's, kept live from
 * experience.* events whoever changed them (the agent, this window or another).
 */
export function ExperiencesPanel(props: { client: CairnClient; source: SessionEvents; session: Session }) {
  const { client, source, session } = props;
  const t = useT();
  const [list, setList] = useState<readonly Experience[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    // Events seen before the list arrives are applied on top of it, so none is lost in between.
    const early: Parameters<Parameters<SessionEvents['listen']>[0]>[0][] = [];
    let loaded = false;
    const off = source.listen((event) => {
      if (!event.type.startsWith('experience.')) return;
      if (!loaded) early.push(event);
      else setList((current) => applyExperienceEvent(session, current ?? [], event));
    });
    client.sessionExperiences(session.id).then(
      (experiences) => {
        if (!alive.current) return;
        loaded = true;
        setList(
          early.reduce<readonly Experience[]>((l, e) => applyExperienceEvent(session, l, e), experiences),
        );
      },
      (e: unknown) => alive.current && setError(messageOf(e)),
    );
    return () => {
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
        setList((current) => {
          const base = current ?? [];
          if (removedId) return base.filter((e) => e.id !== removedId);
          return changed ? upsert(session, base, changed) : base;
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
            projectScope={session.project_id !== null}
            onSave={(text) => update(experience, { text })}
            onMove={(scope) => update(experience, { scope })}
            onDelete={() => remove(experience)}
          />
        ))}
      </ul>
      <ExperienceForm projectScope={session.project_id !== null} onAdd={add} />
    </details>
  );
}
