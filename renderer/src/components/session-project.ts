import { createContext } from 'react';

/**
 * Whether the open session belongs to a project: an approval's "always" rule can then be saved for that
 * project. A context, as the cards that need it sit deep in the transcript and in the side panel's portal.
 */
export const SessionHasProject = createContext(false);
