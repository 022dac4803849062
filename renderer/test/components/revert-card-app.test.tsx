// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { openSession, renderApp, turnRow, withLayout } from '../support/sessions-app';
import { PROJECT, session, stubSessionsBackend, turns } from '../support/sessions-backend';

// A revert's card in the app, as a reload reads it: the turn it restored to is named by that loaded turn's
// ordinal (not parsed from the server's English prompt), and what it could not put back comes with its turn.

const ALPHA = session({ id: 'a', title: 'Alpha', project_id: PROJECT.id });

withLayout();

describe('a revert in the conversation', () => {
  it('names the loaded turn it restored to and lists what it could not put back', async () => {
    const [first, second] = turns('a', 2);
    const revert = {
      ...second!,
      kind: 'revert' as const,
      reverted_turn_id: first!.id,
      prompt: 'Files restored',
      messages: [],
      files_changed: 1,
      files_recorded: true,
      not_restored: [{ path: 'big.bin', reason: 'too large to keep' }],
    };
    stubSessionsBackend({ sessions: [ALPHA], turns: { a: [{ ...first!, files_recorded: true }, revert] } });
    renderApp();
    await openSession(ALPHA.title);
    const card = (await turnRow('a-t2')).querySelector('.revert-card')!;
    expect(card.querySelector('.revert-card-title')?.textContent).toBe('↺ Files restored to before turn 1');
    expect(card.querySelector('[role="note"]')?.textContent).toContain('big.bin — too large to keep');
  });
});
