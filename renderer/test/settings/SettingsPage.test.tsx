// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { type FakeServerOptions, fakeServer, model } from './fake-server';

const SECRET = 'sk-ant-test-SECRET-0123456789';

function setup(options: FakeServerOptions = {}) {
  const server = fakeServer({
    models: [
      model({ id: 'a', name: 'Model A', active: true, has_key: true }),
      model({
        id: 'b',
        name: 'Model B',
        model: 'claude-haiku-4-5',
        base_url: 'https://proxy.example.com',
        context_window: 100_000,
        max_tokens: 4096,
        thinking_budget: 2048,
      }),
    ],
    ...options,
  });
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, server.fetch);
  const onClose = vi.fn();
  const ui = (
    <I18nProvider locale="en">
      <SettingsPage client={client} onClose={onClose} appVersion="0.9.0" />
    </I18nProvider>
  );
  const view = render(ui);
  return { server, client, onClose, view, ui };
}

const modelItem = (name: string) =>
  screen.getByRole('heading', { name, level: 3 }).closest('li') as HTMLElement;
const calls = (server: ReturnType<typeof fakeServer>, method: string) =>
  server.requests.filter((r) => r.method === method);

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('SettingsPage models', () => {
  it('lists the models with endpoint, sizes, active badge and key status', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    const a = within(modelItem('Model A'));
    const b = within(modelItem('Model B'));

    expect(a.getByText('Active')).toBeTruthy();
    expect(a.getByText('Key set')).toBeTruthy();
    expect(a.getByText('Default endpoint')).toBeTruthy();
    expect(a.getByText('200,000 tokens')).toBeTruthy();
    expect(a.getByText('8,192 tokens')).toBeTruthy();
    expect(a.getByText('Off')).toBeTruthy();

    expect(b.queryByText('Active')).toBeNull();
    expect(b.getByText('Key not set')).toBeTruthy();
    expect(b.getByText('https://proxy.example.com')).toBeTruthy();
    expect(b.getByText('100,000 tokens')).toBeTruthy();
    expect(b.getByText('2,048 tokens')).toBeTruthy();

    const list = server.requests.find((r) => r.path === '/api/models');
    expect(list).toMatchObject({ method: 'GET', authorization: 'Bearer t', redirect: 'error' });
  });

  it('adds a model with the default sizes', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
    const form = screen.getByRole('form', { name: 'Add a model' });
    const f = within(form);
    expect((f.getByLabelText('Context window (tokens)') as HTMLInputElement).value).toBe('200000');
    expect((f.getByLabelText('Max output tokens') as HTMLInputElement).value).toBe('8192');
    fireEvent.input(f.getByLabelText('Name'), { target: { value: 'Work' } });
    fireEvent.input(f.getByLabelText('Model ID'), { target: { value: 'claude-opus-4-1' } });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));

    await screen.findByRole('heading', { name: 'Work', level: 3 });
    expect(calls(server, 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/models',
        body: {
          name: 'Work',
          model: 'claude-opus-4-1',
          base_url: null,
          context_window: 200_000,
          max_tokens: 8192,
          thinking_budget: null,
          compact_threshold: 0.8,
        },
        authorization: 'Bearer t',
        redirect: 'error',
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Add a model' })).toBeNull();
    expect(within(modelItem('Work')).getByText('Key not set')).toBeTruthy();
  });

  it('explains invalid fields before sending anything', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
    const f = within(screen.getByRole('form', { name: 'Add a model' }));
    fireEvent.input(f.getByLabelText('Model ID'), { target: { value: 'claude' } });
    fireEvent.input(f.getByLabelText('Base URL (optional)'), { target: { value: 'ftp://example.com' } });
    fireEvent.input(f.getByLabelText('Context window (tokens)'), { target: { value: 'lots' } });
    fireEvent.input(f.getByLabelText('Extended-thinking budget (optional, tokens)'), {
      target: { value: '500' },
    });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));

    expect(f.getByText('Enter a name.')).toBeTruthy();
    expect(
      f.getByText('Enter a full address starting with http:// or https://, or leave it empty.'),
    ).toBeTruthy();
    expect(f.getByText('Enter a whole number of tokens.')).toBeTruthy();
    expect(
      f.getByText('The thinking budget must be at least 1,024 tokens. Leave it empty to turn thinking off.'),
    ).toBeTruthy();
    const name = f.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(calls(server, 'POST')).toEqual([]);

    // A budget at or above max output tokens is refused too.
    fireEvent.input(name, { target: { value: 'X' } });
    fireEvent.input(f.getByLabelText('Base URL (optional)'), { target: { value: '' } });
    fireEvent.input(f.getByLabelText('Context window (tokens)'), { target: { value: '200,000' } });
    fireEvent.input(f.getByLabelText('Extended-thinking budget (optional, tokens)'), {
      target: { value: '9000' },
    });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));
    expect(f.getByText('The thinking budget must be below max output tokens (8,192).')).toBeTruthy();
    expect(calls(server, 'POST')).toEqual([]);
  });

  it('shows the server error inline when the server refuses', async () => {
    setup({ createError: { status: 400, code: 'bad_request', message: 'base_url must be an http(s) URL' } });
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
    const f = within(screen.getByRole('form', { name: 'Add a model' }));
    fireEvent.input(f.getByLabelText('Name'), { target: { value: 'X' } });
    fireEvent.input(f.getByLabelText('Model ID'), { target: { value: 'y' } });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));
    expect((await f.findByRole('alert')).textContent).toBe(
      'The server did not accept this: base_url must be an http(s) URL',
    );
    expect(screen.getByRole('form', { name: 'Add a model' })).toBeTruthy();
  });

  it('edits a model with the form prefilled', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model B', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Model B' }));
    const f = within(screen.getByRole('form', { name: 'Edit “Model B”' }));
    expect((f.getByLabelText('Name') as HTMLInputElement).value).toBe('Model B');
    expect((f.getByLabelText('Base URL (optional)') as HTMLInputElement).value).toBe(
      'https://proxy.example.com',
    );
    expect((f.getByLabelText('Extended-thinking budget (optional, tokens)') as HTMLInputElement).value).toBe(
      '2048',
    );
    fireEvent.input(f.getByLabelText('Base URL (optional)'), { target: { value: '' } });
    fireEvent.input(f.getByLabelText('Extended-thinking budget (optional, tokens)'), {
      target: { value: '' },
    });
    fireEvent.click(f.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(within(modelItem('Model B')).getByText('Default endpoint')).toBeTruthy());
    expect(calls(server, 'PATCH')).toEqual([
      expect.objectContaining({
        path: '/api/models/b',
        body: {
          name: 'Model B',
          model: 'claude-haiku-4-5',
          base_url: null,
          context_window: 100_000,
          max_tokens: 4096,
          thinking_budget: null,
          compact_threshold: 0.8,
        },
      }),
    ]);
  });

  it('activates a model', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model B', level: 3 });
    expect(within(modelItem('Model A')).queryByRole('button', { name: 'Activate Model A' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Activate Model B' }));
    await waitFor(() => expect(within(modelItem('Model B')).getByText('Active')).toBeTruthy());
    expect(within(modelItem('Model A')).queryByText('Active')).toBeNull();
    expect(calls(server, 'POST')).toEqual([
      expect.objectContaining({ path: '/api/models/b/activate', authorization: 'Bearer t' }),
    ]);
  });

  it('deletes a model only after confirmation', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model B', level: 3 });

    fireEvent.click(screen.getByRole('button', { name: 'Delete Model B' }));
    expect(screen.getByText('Delete the model “Model B”? Its stored API key is removed too.')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(/Delete the model/)).toBeNull();
    expect(calls(server, 'DELETE')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Model B' }));
    expect(calls(server, 'DELETE')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete model' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Model B', level: 3 })).toBeNull());
    expect(calls(server, 'DELETE')).toEqual([
      expect.objectContaining({ path: '/api/models/b', authorization: 'Bearer t' }),
    ]);
  });
});

describe('SettingsPage API key', () => {
  it('is a write-only password field that is cleared and never rendered', async () => {
    const { server, view, ui } = setup();
    await screen.findByRole('heading', { name: 'Model B', level: 3 });
    const input = screen.getByLabelText('API key for Model B') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('off');
    expect(input.value).toBe('');

    fireEvent.input(input, { target: { value: SECRET } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the API key for Model B' }));
    expect(input.value).toBe('');

    await waitFor(() => expect(within(modelItem('Model B')).getByText('Key set')).toBeTruthy());
    expect(within(modelItem('Model B')).getByText('Key saved.')).toBeTruthy();
    expect(calls(server, 'PUT')).toEqual([
      {
        method: 'PUT',
        path: '/api/models/b/key',
        body: { key: SECRET },
        authorization: 'Bearer t',
        redirect: 'error',
      },
    ]);

    const after = screen.getByLabelText('API key for Model B') as HTMLInputElement;
    expect(after.value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET);
    view.rerender(ui);
    await act(async () => {});
    expect((screen.getByLabelText('API key for Model B') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('asks for a key when the field is empty', async () => {
    const { server } = setup();
    await screen.findByRole('heading', { name: 'Model B', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Save the API key for Model B' }));
    expect(within(modelItem('Model B')).getByRole('alert').textContent).toBe('Paste a key first.');
    expect(calls(server, 'PUT')).toEqual([]);
  });

  it('shows the keychain_unavailable message', async () => {
    const message =
      'No OS keychain is available here (the keytar module could not be loaded: x). Set CAIRN_ANTHROPIC_API_KEY in the environment instead.';
    setup({ keyError: { status: 503, code: 'keychain_unavailable', message } });
    await screen.findByRole('heading', { name: 'Model B', level: 3 });
    const input = screen.getByLabelText('API key for Model B') as HTMLInputElement;
    fireEvent.input(input, { target: { value: SECRET } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the API key for Model B' }));

    const alert = await within(modelItem('Model B')).findByRole('alert');
    expect(alert.textContent).toBe(`The key was not saved: ${message}`);
    expect(alert.textContent).toContain('CAIRN_ANTHROPIC_API_KEY');
    expect(input.value).toBe('');
    expect(within(modelItem('Model B')).getByText('Key not set')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });
});

describe('SettingsPage language and about', () => {
  it('switches the interface to Simplified Chinese', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    const select = screen.getByLabelText('Display language') as HTMLSelectElement;
    expect(select.value).toBe('en');
    fireEvent.change(select, { target: { value: 'zh-CN' } });

    // The Chinese strings are fetched when chosen; English stays until they are here.
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: '设置', level: 1 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '模型', level: 2 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加模型' })).toBeTruthy();
    expect(within(modelItem('Model A')).getByText('已设置密钥')).toBeTruthy();
    expect(within(modelItem('Model B')).getByText('未设置密钥')).toBeTruthy();
    expect(screen.getByLabelText('显示语言')).toBeTruthy();
    expect(localStorage.getItem('cairn.locale')).toBe('zh-CN');
  });

  it('shows app and server details', async () => {
    const { onClose } = setup();
    await screen.findByText('/home/me/.cairn');
    const about = within(screen.getByRole('region', { name: 'About' }));
    expect(about.getByText('0.9.0')).toBeTruthy();
    expect(about.getByText('1.2.3')).toBeTruthy();
    expect(about.getByText('Remote')).toBeTruthy();
    expect(about.getByText('Node 20.18.0 on linux')).toBeTruthy();
    expect(about.getByText('Shell commands: available')).toBeTruthy();
    expect(about.getByText('Kernels: not available')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close settings' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape', async () => {
    const { onClose } = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.keyDown(screen.getByRole('heading', { name: 'Settings', level: 1 }), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
