// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { type EnvOverrides, fakeServer, model } from './fake-server';

function setup(envOverrides?: Partial<EnvOverrides>) {
  const server = fakeServer({
    models: [model({ id: 'a', name: 'Model A', active: true, has_key: false })],
    envOverrides,
  });
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, server.fetch);
  render(
    <I18nProvider locale="en">
      <SettingsPage client={client} onClose={vi.fn()} appVersion="0.9.0" />
    </I18nProvider>,
  );
  return { server };
}

const models = () => within(screen.getByRole('region', { name: 'Models' }));

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('SettingsPage environment overrides', () => {
  it('says what the server environment overrides, without any key value', async () => {
    const { server } = setup({ key: true, model: 'claude-opus-4-1', base_url: 'https://gw.example.com' });
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    const notice = within(models().getByRole('note', { name: 'Environment overrides' }));

    expect(
      notice.getByText(
        'The server’s environment overrides the active configuration. The saved configuration is not changed.',
      ),
    ).toBeTruthy();
    expect(notice.getByText('API key from CAIRN_ANTHROPIC_API_KEY')).toBeTruthy();
    expect(notice.getByText('Model: claude-opus-4-1 (CAIRN_MODEL)')).toBeTruthy();
    expect(notice.getByText('Endpoint: https://gw.example.com (CAIRN_ANTHROPIC_BASE_URL)')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === '/api/models')).toHaveLength(1);
  });

  it('lists only the overrides that are set', async () => {
    setup({ model: 'claude-opus-4-1' });
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    const notice = within(models().getByRole('note'));
    expect(notice.getByText('Model: claude-opus-4-1 (CAIRN_MODEL)')).toBeTruthy();
    expect(notice.queryByText('API key from CAIRN_ANTHROPIC_API_KEY')).toBeNull();
    expect(notice.queryByText(/CAIRN_ANTHROPIC_BASE_URL/)).toBeNull();
  });

  it('shows no notice when nothing is overridden', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText(/CAIRN_/)).toBeNull();
  });

  it('is translated to Simplified Chinese', async () => {
    setup({ key: true });
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.change(screen.getByLabelText('Display language'), { target: { value: 'zh-CN' } });
    const notice = within(screen.getByRole('note', { name: '环境变量覆盖' }));
    expect(notice.getByText('API 密钥来自 CAIRN_ANTHROPIC_API_KEY')).toBeTruthy();
  });
});
