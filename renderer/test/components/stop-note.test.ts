import { expect, it } from 'vitest';
import { stopNoteText } from '../../src/components/tool-cards/stop-note';
import { ZH_CN_CATALOG } from '../../src/i18n/catalog-zh-CN';

// The lines sidecar/src/tools/runtime/call-outcome.ts writes (stopMessage() for each StopKind, and the
// fallback in stopped()), copied here: the renderer's tests may not import the sidecar's tools layer.
const SIDECAR_STOP_LINES = [
  'The call timed out and was stopped with everything it started.',
  'The call that started it ended, so it was cancelled with everything it started.',
  'Its session was deleted, so the call was cancelled with everything it started.',
  'Cairn stopped while this call ran, so it was stopped with everything it started.',
  'The call was cancelled; everything it started was stopped.',
  'The user cancelled this tool call; its process tree was stopped.',
];

it('says every stop line the sidecar writes in the UI language, and other text as it is', () => {
  const zh = ZH_CN_CATALOG;
  const t = (key: string) => zh[key] ?? key;
  for (const line of SIDECAR_STOP_LINES) {
    const said = stopNoteText(line, t);
    expect(said, line).not.toBe(line);
    expect(said, line).not.toMatch(/^tool\./);
  }
  expect(stopNoteText('Something else.', t)).toBe('Something else.');
});
