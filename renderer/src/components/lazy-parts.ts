// Parts the first screen does not show, each loaded the first time it opens (React.lazy), so the script
// needed to show a conversation stays small. Render them inside a <Suspense>.
import { lazy } from 'react';
import { withPartBoundary } from './PartBoundary';

export const SettingsPage = withPartBoundary(
  lazy(() => import('./SettingsPage').then((m) => ({ default: m.SettingsPage }))),
);
export const OpenProjectDialog = withPartBoundary(
  lazy(() => import('./OpenProjectDialog').then((m) => ({ default: m.OpenProjectDialog }))),
);
export const SearchDialog = withPartBoundary(
  lazy(() => import('./sessions/SearchDialog').then((m) => ({ default: m.SearchDialog }))),
);
export const SessionChangesDialog = withPartBoundary(
  lazy(() => import('./changes/SessionChangesDialog').then((m) => ({ default: m.SessionChangesDialog }))),
);
// Shown only when no backend is known or the desktop host lost it.
export const ConnectionScreen = withPartBoundary(
  lazy(() => import('./ConnectionScreen').then((m) => ({ default: m.ConnectionScreen }))),
);
export const BackendProblem = withPartBoundary(
  lazy(() => import('./BackendProblem').then((m) => ({ default: m.BackendProblem }))),
);
export const SessionSwitcher = withPartBoundary(
  lazy(() => import('./SessionSwitcher').then((m) => ({ default: m.SessionSwitcher }))),
);

// The side panel's parts (it is closed at start).
export const ContextPanel = withPartBoundary(
  lazy(() => import('./context/ContextPanel').then((m) => ({ default: m.ContextPanel }))),
);
export const ExperiencesPanel = withPartBoundary(
  lazy(() => import('./experiences/ExperiencesPanel').then((m) => ({ default: m.ExperiencesPanel }))),
);
export const BackgroundPanel = withPartBoundary(
  lazy(() => import('./background/BackgroundPanel').then((m) => ({ default: m.BackgroundPanel }))),
);
export const McpSessionPanel = withPartBoundary(
  lazy(() => import('./mcp/McpSessionPanel').then((m) => ({ default: m.McpSessionPanel }))),
);
export const KernelPanel = withPartBoundary(
  lazy(() => import('./kernel/KernelPanel').then((m) => ({ default: m.KernelPanel }))),
);

// Parts of the conversation that show only on an event: each in its own <Suspense> where it is used.
// An approval's answers show only while it waits (the history shows its outcome instead).
export const ApprovalChoices = withPartBoundary(
  lazy(() => import('./ApprovalChoices').then((m) => ({ default: m.ApprovalChoices }))),
);
// An MCP server's form shows only while it waits (elicitation).
export const ElicitationForm = withPartBoundary(
  lazy(() => import('./ElicitationForm').then((m) => ({ default: m.ElicitationForm }))),
);
// A turn's changed files show when "N files changed" is unfolded (they are fetched then too).
export const FileChangeList = withPartBoundary(
  lazy(() => import('./changes/FileChangeList').then((m) => ({ default: m.FileChangeList }))),
);
