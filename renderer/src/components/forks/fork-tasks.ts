import { createContext } from 'react';

/**
 * The open session's forks by id, to their task: a question a fork asks names it. A context, as question
 * cards sit deep in the transcript and in the side panel's portal.
 */
export const ForkTasks = createContext<ReadonlyMap<string, string>>(new Map());
