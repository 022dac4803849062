// Parts the first screen does not show, each loaded the first time it opens (React.lazy), so the script
// needed to show a conversation stays small. Render them inside a <Suspense>.
import { lazy } from 'react';

export const SettingsPage = lazy(() => import('./SettingsPage').then((m) => ({ default: m.SettingsPage })));
export const OpenProjectDialog = lazy(() =>
  import('./OpenProjectDialog').then((m) => ({ default: m.OpenProjectDialog })),
);
export const SearchDialog = lazy(() =>
  import('./sessions/SearchDialog').then((m) => ({ default: m.SearchDialog })),
);
export const SessionChangesDialog = lazy(() =>
  import('./changes/SessionChangesDialog').then((m) => ({ default: m.SessionChangesDialog })),
);
// Shown only when no backend is known or the desktop host lost it.
export const ConnectionScreen = lazy(() =>
  import('./ConnectionScreen').then((m) => ({ default: m.ConnectionScreen })),
);
export const BackendProblem = lazy(() =>
  import('./BackendProblem').then((m) => ({ default: m.BackendProblem })),
);
export const SessionSwitcher = lazy(() =>
  import('./SessionSwitcher').then((m) => ({ default: m.SessionSwitcher })),
);

// The side panel's parts (it is closed at start).
export const ContextPanel = lazy(() =>
  import('./context/ContextPanel').then((m) => ({ default: m.ContextPanel })),
);
export const ExperiencesPanel = lazy(() =>
  import('./experiences/ExperiencesPanel').then((m) => ({ default: m.ExperiencesPanel })),
);
export const BackgroundPanel = lazy(() =>
  import('./background/BackgroundPanel').then((m) => ({ default: m.BackgroundPanel })),
);
export const McpSessionPanel = lazy(() =>
  import('./mcp/McpSessionPanel').then((m) => ({ default: m.McpSessionPanel })),
);
export const KernelPanel = lazy(() =>
  import('./kernel/KernelPanel').then((m) => ({ default: m.KernelPanel })),
);
