import { english } from '../english';

/** Background tasks (the side panel's section), what waits for the user outside the running turn, loaded tools. */
export const backgroundMessages = english({
  'background.title': 'Background tasks',
  'background.running': '{count} running',
  'background.empty':
    'Nothing runs in the background. When the agent starts a long command without waiting for it, it shows here with its newest output.',
  'background.callLabel': '{name}: {summary}',
  'background.cancel': 'Cancel',
  'background.stopping': 'Stopping…',
  'background.cancelFailed': 'Could not cancel it: {message}',
  'background.exitCode': 'exit code {code}',
  'background.output': 'Output',
  'background.outputLoading': 'Reading its output…',
  'background.tailNote': 'Earlier output is left out: these are its newest lines.',
  'background.waiting.title': 'Waiting for you',
  'background.waiting.count': '{count} waiting for you',
  'background.awaitingApproval': 'A call from its script waits for your approval, above.',
  'background.tools.title': 'Loaded tools',
  'background.tools.empty': 'No tools loaded. The agent can load a tool from a file of the project.',
  'background.tools.ready': 'Ready',
  'background.tools.crashed': 'Crashed',
  'background.tools.local': 'Runs in Cairn',
  'background.tools.process': 'Runs in a worker process (pid {pid})',
  'background.tools.processNoPid': 'Runs in a worker process',
  'background.tools.error': 'Error: {message}',
  'background.tools.methods': 'Methods of {name}',
  'background.tools.batch': 'batch',
  'background.tools.stream': 'stream',
});
