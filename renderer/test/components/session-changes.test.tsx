// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { FileChanges } from '../../../sidecar/src/protocol';
import { SessionChangesDialog } from '../../src/components/changes/SessionChangesDialog';
import { I18nProvider } from '../../src/i18n/i18n';

// The session's total of file changes: its files, the server's note when some turns were not recorded,
// and an empty state; the dialog's Close button takes the focus.

function show(answer: FileChanges) {
  const fetch: typeof globalThis.fetch = async (input) => {
    const found = new URL(String(input)).pathname === '/api/sessions/s1/changes';
    return new Response(
      JSON.stringify(found ? answer : { error: { code: 'not_found', message: 'no such route' } }),
      { status: found ? 200 : 404, headers: { 'content-type': 'application/json' } },
    );
  };
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch);
  render(
    <I18nProvider locale="en">
      <SessionChangesDialog client={client} sessionId="s1" onClose={() => undefined} />
    </I18nProvider>,
  );
  return screen.getByRole('dialog', { name: 'Changes in this session' });
}

afterEach(() => cleanup());

describe('SessionChangesDialog', () => {
  it('lists the files with the note about turns left out', async () => {
    const dialog = show({
      changes: [
        {
          path: 'a.txt',
          status: 'added',
          diff: '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n',
          binary: false,
          too_large: false,
          additions: 1,
          deletions: 0,
        },
      ],
      recorded: true,
      note: '1 of the session’s turns have no recorded files and are not counted.',
    });
    expect(document.activeElement?.textContent).toBe('Close');
    expect((await screen.findByRole('list', { name: 'Files changed' })).textContent).toContain('a.txt');
    expect(dialog.textContent).toContain('are not counted');
  });

  it('says when the session changed no file', async () => {
    show({ changes: [], recorded: true, note: null });
    expect(await screen.findByText('No file changes recorded in this session')).toBeTruthy();
  });
});
