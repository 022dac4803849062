import { english } from '../english';

/** Sessions across the app: branching, export and import, and what turns cost (estimated). */
export const sessionMessages = english({
  'branch.fromHere': 'Branch from here',
  'branch.fromHereLabel': 'Branch a new session from turn {ordinal}',
  'branch.failed': 'Could not branch the session: {message}',
  'branch.from': 'Branched from {title} · turn {ordinal}',
  'branch.fromLabel': 'Open {title} at turn {ordinal}',
  'branch.fromGone': 'Branched from a session that no longer exists',
  'branch.count.one': '1 branch',
  'branch.count.other': '{count} branches',
  'branch.menu': 'Sessions branched from this one',
  'branch.item': '{title} · from turn {ordinal}',
  'session.actions': 'Session actions',
  'session.exportMd': 'Export as Markdown',
  'session.exportJson': 'Export as JSON',
  'session.import': 'Import session…',
  'session.exportFailed': 'Could not export the session: {message}',
  'session.importFailed': 'Could not import {file}: {message}',
  'session.importNotJson': 'it is not JSON. Choose a file made by “Export as JSON”.',
  'cost.turn': '≈ {cost} (estimated)',
  'cost.label': 'Estimated from the prices set on the model configuration',
  'cost.session': '{tokens} tokens · ≈ {cost} (estimated)',
  'cost.sessionTokens': '{tokens} tokens',
  'cost.sessionLabel': 'This session’s tokens over all its turns, and their estimated cost',
});
