import { english } from '../english';

/** Code mode: the session's mode in the header, and each code step's card in the conversation. */
export const codeModeMessages = english({
  'session.mode': 'Mode',
  'session.mode.tools': 'Tools',
  'session.mode.code': 'Code',
  'session.mode.tools.hint': 'The agent calls tools one at a time.',
  'session.mode.code.hint':
    "The agent acts by writing Python that runs in the session's kernel and calls the tools as functions.",
  'session.mode.running': 'The mode can change once the running turn ends.',
  'session.mode.error': 'Could not switch the mode: {message}',
  'codeStep.label': 'Code step',
});
