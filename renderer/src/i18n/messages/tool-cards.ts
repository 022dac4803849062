import { english } from '../english';

/** A tool card's collapsed frame: its summary line, background and script marks, and a part that failed to load. */
export const toolCardMessages = english({
  'tool.summary.in': '{pattern} in {path}',
  'tool.summary.line': '1 line',
  'tool.summary.lines': '{count} lines',
  'tool.summary.everyOccurrence': '{counts}, every occurrence',
  'tool.summary.range': 'lines {from}–{to}',
  'tool.summary.from': 'from line {from}',
  'tool.summary.image': 'image',
  'tool.opening': 'Opening…',
  'part.loadFailed': 'This part of the window could not be loaded: {message}',
  'part.reload': 'Reload',

  'tool.background': 'background',
  'tool.progress.fraction': '{progress} of {total}',
  'tool.progress.count': '{count} so far',
  'tool.backgroundRunning':
    'Runs in the background: the agent went on without waiting for it. Its newest output is under Background tasks in the side panel (Ctrl/Cmd+J).',
  'tool.backgroundEnded': 'Ran in the background, while the agent went on.',
  'tool.fromScript': 'Started by a script of call {id}',
  'tool.nested': 'Calls started by the script of {name}',
});
