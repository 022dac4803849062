import { CairnError, notFound } from '../../errors';
import type { Store } from '../../store/store';

/** A new session's project (created or imported): one that exists, on a server that has projects. */
export function requireProject(store: Store, projectId: string, conversationOnly: boolean): void {
  if (conversationOnly) {
    throw new CairnError(
      'conversation_only',
      'This Cairn server runs conversation-only: sessions have no project.',
    );
  }
  if (!store.projects.get(projectId)) throw notFound('Project', projectId);
}
