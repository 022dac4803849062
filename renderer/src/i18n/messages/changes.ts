import { english } from '../english';

/** File changes under a turn (folded), the revert dialog, a revert's card; the files and diffs are in changed-files. */
export const changesMessages = english({
  'changes.count.one': '1 file changed',
  'changes.count.other': '{count} files changed',
  'changes.listLabel': 'Files changed',
  'changes.loadFailed': 'The changes could not be read: {message}',
  'changes.revert': 'Undo these file changes',
  'changes.revertTitle': 'Restore the project’s files to before turn {ordinal}',
  'changes.revert.confirm':
    'Restore the project’s files to how they were before turn {ordinal}? This undoes the file changes of this turn and of every later turn. The conversation is kept.',
  'changes.revert.confirmButton': 'Undo file changes',
  'changes.revert.working': 'Restoring…',
  'changes.revert.conflict':
    'These files were changed since Cairn recorded them (by you or something else). Reverting overwrites those changes:',
  'changes.revert.force': 'Revert anyway',
  'changes.revert.failed': 'The files could not be restored: {message}',
  'changes.revert.close': 'Close',
  'changes.revertCard.title': 'Files restored to before turn {ordinal}',
  'changes.revertCard.titleUnknown': 'Files restored',
  'changes.revertCard.undo': 'Undo this revert',
  'changes.revertCard.undoConfirm':
    'Undo this revert? The project’s files go back to how they were before it, which also undoes the file changes of any later turn. The conversation is kept.',
  'changes.revertCard.notRestored': 'Not restored:',
  'changes.session.menu': 'Changes in this session',
});
