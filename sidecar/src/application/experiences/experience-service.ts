import { badRequest, notFound } from '../../errors';
import type {
  CreateExperienceRequest,
  Experience,
  ExperienceScope,
  NewEvent,
  UpdateExperienceRequest,
} from '../../protocol';
import type { Store } from '../../store/store';
import type { ContextMemory } from '../context/context-service';

/**
 * Experiences, the durable memory the agent and the user keep for a session or for every session of a
 * project: listing, adding, editing, moving between scopes, deleting — each told to the sessions that see it.
 */
export class ExperienceService implements ContextMemory {
  constructor(private readonly store: Store) {}

  listForSession(sessionId: string): Experience[] {
    const session = this.session(sessionId);
    return this.store.experiences.forSession(session.id, session.project_id);
  }

  listForProject(projectId: string): Experience[] {
    this.project(projectId);
    return this.store.experiences.forProject(projectId);
  }

  addToSession(sessionId: string, input: CreateExperienceRequest, author: Experience['author']): Experience {
    const session = this.session(sessionId);
    const scope = input.scope ?? 'session';
    if (scope === 'project' && session.project_id === null)
      throw badRequest('This session has no project, so the experience can only be kept for the session.');
    return this.added(
      this.store.experiences.create({
        scope,
        // A project experience belongs to no session: deleting the session it came from must not take it along.
        sessionId: scope === 'session' ? session.id : null,
        projectId: session.project_id,
        text: input.text,
        author,
      }),
    );
  }

  addToProject(projectId: string, input: CreateExperienceRequest): Experience {
    this.project(projectId);
    if (input.scope === 'session')
      throw badRequest(
        'A session experience is added through its session: POST /api/sessions/{id}/experiences.',
      );
    return this.added(
      this.store.experiences.create({
        scope: 'project',
        sessionId: null,
        projectId,
        text: input.text,
        author: 'user',
      }),
    );
  }

  update(id: string, patch: UpdateExperienceRequest): Experience {
    const current = this.get(id);
    const scope: ExperienceScope = patch.scope ?? current.scope;
    // Moving into a session's scope names the session; staying there keeps its own unless another is named.
    let sessionId = current.scope === 'session' ? current.session_id : null;
    if (patch.session_id !== undefined) {
      const session = this.session(patch.session_id);
      // Experiences stay within their project: another project's session is somebody else's memory.
      if (session.project_id !== current.project_id)
        throw badRequest(
          'The experience belongs to another project; it can only move to a session of its own.',
        );
      // Without a project there is nothing two sessions share: the experience stays with its own.
      if (current.project_id === null && session.id !== current.session_id)
        throw badRequest('The experience’s session has no project, so it cannot move to another session.');
      if (scope === 'project')
        throw badRequest('session_id moves an experience into a session: send it with "scope": "session".');
      sessionId = session.id;
    }
    if (scope === 'session' && sessionId === null)
      throw badRequest('Give session_id to move a project experience into a session.');
    if (scope === 'project' && current.project_id === null)
      throw badRequest('The experience’s session has no project, so it can only be kept for the session.');
    const before = this.audience(current);
    const updated = this.store.experiences.update(id, {
      text: patch.text ?? current.text,
      scope,
      sessionId: scope === 'session' ? sessionId : null,
      projectId: current.project_id,
    });
    if (!updated) throw notFound('Experience', id);
    // Sessions that saw it and sessions that now see it: each decides from the scope whether it still shows it.
    this.tell(new Set([...before, ...this.audience(updated)]), {
      type: 'experience.updated',
      turn_id: null,
      experience: updated,
    });
    return updated;
  }

  remove(id: string): void {
    const current = this.get(id);
    this.store.experiences.delete(id);
    this.tell(this.audience(current), { type: 'experience.removed', turn_id: null, experience_id: id });
  }

  private added(experience: Experience): Experience {
    this.tell(this.audience(experience), { type: 'experience.added', turn_id: null, experience });
    return experience;
  }

  /** The sessions whose agent sees an experience: its own session, or every session of its project. */
  private audience(experience: Experience): Set<string> {
    if (experience.scope === 'project' && experience.project_id !== null)
      return new Set(this.store.sessions.listIdsByProject(experience.project_id));
    return new Set(experience.session_id ? [experience.session_id] : []);
  }

  private tell(sessionIds: Set<string>, event: NewEvent): void {
    for (const sessionId of sessionIds) this.store.events.append(sessionId, event);
  }

  private get(id: string): Experience {
    const experience = this.store.experiences.get(id);
    if (!experience) throw notFound('Experience', id);
    return experience;
  }

  private session(sessionId: string) {
    const session = this.store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    return session;
  }

  private project(projectId: string) {
    const project = this.store.projects.get(projectId);
    if (!project) throw notFound('Project', projectId);
    return project;
  }
}
