import { english } from '../english';

/** The dialogs the sidebar and the keyboard open: open a project folder, switch session, search. */
export const dialogMessages = english({
  'openProject.title': 'Open a project folder',
  'openProject.pathLabel': 'Folder path on the server',
  'openProject.hintRemote': 'Projects are folders on the machine that runs the Cairn server.',
  'openProject.pathLabelOnHost': 'Folder path on {host}',
  'openProject.hintOnHost':
    'Projects are folders on {host}, the machine that runs the Cairn server, not on this computer.',
  'openProject.open': 'Open',
  'openProject.cancel': 'Cancel',
  'switcher.title': 'Switch session',
  'switcher.placeholder': 'Type to filter sessions',
  'switcher.empty': 'No matching session',

  'search.title': 'Search',
  'search.placeholder': 'Search messages, tool calls and kernel cells',
  'search.scope': 'Search in',
  'search.scope.session': 'This session',
  'search.scope.project': 'This project',
  'search.scope.all': 'All sessions',
  'search.results': 'Results',
  'search.searching': 'Searching…',
  'search.hint': 'Type a word or a phrase to find it.',
  'search.none': 'Nothing found for “{query}”.',
  'search.error': 'Search failed: {message}',
  'search.more': 'Load more',
  'search.keys': '↑ ↓ move · Enter opens · Esc closes',
  'search.kind.message': 'Message',
  'search.kind.tool_call': 'Tool call',
  'search.kind.kernel_cell': 'Kernel cell',
});
