import { english } from '../english';

/** The changed files with their diffs: under a turn when unfolded, and the session's total. */
export const changedFileMessages = english({
  'changes.status.added': 'Added',
  'changes.status.modified': 'Modified',
  'changes.status.deleted': 'Deleted',
  'changes.statsLabel': '{additions} lines added, {deletions} removed',
  'changes.toggleDiff': 'Diff of {path}',
  'changes.binary': 'Binary file — no diff',
  'changes.tooLarge': 'Too large to show',
  'changes.noDiff': 'No diff to show',
  'changes.emptyFile': 'Empty file',
  'changes.showAll': 'Show all {count}',
  'changes.session.title': 'Changes in this session',
  'changes.session.empty': 'No file changes recorded in this session',
});
