// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../sidecar/src/protocol';
import { CairnClient } from '../../src/api/http-client';
import { SessionHeader } from '../../src/components/SessionHeader';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';

// The side-panel toggle counts what waits for the user there (outside the running turn), so an approval a
// background script asks for is noticed with the panel closed.

const session: Session = {
  id: 's',
  project_id: null,
  title: 'A session',
  approval: 'ask',
  created_at: '',
  updated_at: '',
  running_turn_id: null,
};

function header(waiting: number | undefined, locale: Locale = 'en') {
  render(
    <I18nProvider locale={locale}>
      <SessionHeader
        client={new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch)}
        session={session}
        streamState="open"
        modelName={null}
        onChanged={() => undefined}
        onTogglePanel={() => undefined}
        waiting={waiting}
      />
    </I18nProvider>,
  );
}

afterEach(cleanup);

describe('the side-panel toggle', () => {
  it('says how many wait in the panel, and nothing when none do', () => {
    header(2);
    const toggle = screen.getByRole('button', { name: 'Toggle side panel (2 waiting for you)' });
    expect(toggle.textContent).toBe('◫2');
    cleanup();
    header(0);
    expect(screen.getByRole('button', { name: 'Toggle side panel' }).textContent).toBe('◫');
  });

  it('speaks Chinese', () => {
    header(1, 'zh-CN');
    expect(screen.getByRole('button', { name: '切换侧边面板（1 项等待你处理）' })).toBeTruthy();
  });
});
