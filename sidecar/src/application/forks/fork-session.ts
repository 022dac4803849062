import type { ForkCaller } from '../../agent/fork-tool';
import { workingHistory } from '../../context/working-history';
import type { Session } from '../../protocol';
import type { Store } from '../../store/store';
import { forkTitle } from './fork-prompt';

/**
 * Makes a fork's session: the parent's project and approval mode, and as its first context version the
 * parent's messages before the spawning request (not what that request's tools do meanwhile), with the
 * parent's system prompt addition and its session experiences copied, so the fork starts where the parent
 * stood and nothing it does later reaches the parent.
 */
export function createForkSession(
  store: Store,
  parent: Session,
  caller: ForkCaller,
  fork: { task: string; tools: string[] | null },
): Session {
  const history = workingHistory(store, parent.id);
  return store.transaction(() => {
    const session = store.sessions.create({
      projectId: parent.project_id,
      title: forkTitle(fork.task),
      approval: parent.approval,
      fork: {
        parentSessionId: parent.id,
        parentTurnId: caller.turnId,
        task: fork.task,
        tools: fork.tools,
      },
      initialContext: { edited: history.messages, systemAddition: history.state.systemAddition },
    });
    const own = store.experiences
      .forSession(parent.id, parent.project_id)
      .filter((e) => e.scope === 'session' && e.session_id === parent.id);
    for (const experience of own) {
      store.experiences.create({
        scope: 'session',
        sessionId: session.id,
        projectId: parent.project_id,
        text: experience.text,
        author: experience.author,
        createdAt: experience.created_at,
      });
    }
    return session;
  });
}
