import type { Translate } from '../../i18n/i18n';
import '../../i18n/messages/tool-bodies';

// The line a stopped call's result ends with, written for the model in English
// (sidecar/src/tools/runtime/call-outcome.ts stopMessage() and stopped()); the card says it in the UI's language.
const STOP_NOTES: Record<string, string> = {
  'The call timed out and was stopped with everything it started.': 'tool.stop.timeout',
  'The call that started it ended, so it was cancelled with everything it started.': 'tool.stop.parent',
  'Its session was deleted, so the call was cancelled with everything it started.': 'tool.stop.sessionClosed',
  'Cairn stopped while this call ran, so it was stopped with everything it started.': 'tool.stop.shutdown',
  'The call was cancelled; everything it started was stopped.': 'tool.stop.cancelled',
  'The user cancelled this tool call; its process tree was stopped.': 'tool.stop.cancelled',
};

/** A stop note in the UI's language, or the text as it is when the card does not know it. */
export function stopNoteText(note: string, t: Translate): string {
  const key = STOP_NOTES[note];
  return key ? t(key) : note;
}
