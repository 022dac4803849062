// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeServer, model } from './fake-server';

// Automatic compaction in a model's settings: a checkbox, and the threshold as a percentage of the
// usable window, sent as the fraction compact_threshold (null when off).

const AUTO = 'Compact the conversation automatically';
const THRESHOLD = 'Compact at (% of the usable window)';
const INVALID = 'Enter a percentage from 1 to 100, or turn automatic compaction off.';

function setup() {
  const server = fakeServer({
    models: [
      model({ id: 'a', name: 'Model A', active: true, compact_threshold: 0.7 }),
      model({ id: 'b', name: 'Model B', compact_threshold: null }),
    ],
  });
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, server.fetch);
  render(
    <I18nProvider locale="en">
      <SettingsPage client={client} onClose={() => {}} appVersion="0.9.0" />
    </I18nProvider>,
  );
  return server;
}

const modelItem = (name: string) =>
  screen.getByRole('heading', { name, level: 3 }).closest('li') as HTMLElement;
const bodies = (server: ReturnType<typeof fakeServer>, method: string) =>
  server.requests.filter((r) => r.method === method).map((r) => r.body);

/** Opens the add form with a name and model filled in. */
async function openAddForm() {
  await screen.findByRole('heading', { name: 'Model A', level: 3 });
  fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
  const f = within(screen.getByRole('form', { name: 'Add a model' }));
  fireEvent.input(f.getByLabelText('Name'), { target: { value: 'Work' } });
  fireEvent.input(f.getByLabelText('Model ID'), { target: { value: 'claude-opus-4-1' } });
  return f;
}

afterEach(() => cleanup());

describe('a model’s automatic compaction', () => {
  it('shows each model’s threshold in the list', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    expect(within(modelItem('Model A')).getByText('Compacts at 70%')).toBeTruthy();
    expect(within(modelItem('Model B')).getByText('Automatic compaction off')).toBeTruthy();
  });

  it('adds a model with a threshold of its own', async () => {
    const server = setup();
    const f = await openAddForm();
    const threshold = f.getByLabelText(THRESHOLD) as HTMLInputElement;
    expect((f.getByLabelText(AUTO) as HTMLInputElement).checked).toBe(true);
    expect(threshold.value).toBe('80');
    fireEvent.input(threshold, { target: { value: '65' } });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));

    await screen.findByRole('heading', { name: 'Work', level: 3 });
    expect(bodies(server, 'POST')).toEqual([expect.objectContaining({ compact_threshold: 0.65 })]);
    expect(within(modelItem('Work')).getByText('Compacts at 65%')).toBeTruthy();
  });

  it('sends null when automatic compaction is turned off', async () => {
    const server = setup();
    const f = await openAddForm();
    fireEvent.click(f.getByLabelText(AUTO));
    expect((f.getByLabelText(THRESHOLD) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));

    await screen.findByRole('heading', { name: 'Work', level: 3 });
    expect(bodies(server, 'POST')).toEqual([expect.objectContaining({ compact_threshold: null })]);
    expect(within(modelItem('Work')).getByText('Automatic compaction off')).toBeTruthy();
  });

  it('prefills the form when editing, on and off', async () => {
    const server = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });

    fireEvent.click(screen.getByRole('button', { name: 'Edit Model A' }));
    let f = within(screen.getByRole('form', { name: 'Edit “Model A”' }));
    expect((f.getByLabelText(AUTO) as HTMLInputElement).checked).toBe(true);
    expect((f.getByLabelText(THRESHOLD) as HTMLInputElement).value).toBe('70');
    fireEvent.input(f.getByLabelText(THRESHOLD), { target: { value: '90%' } });
    fireEvent.click(f.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(within(modelItem('Model A')).getByText('Compacts at 90%')).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Model B' }));
    f = within(screen.getByRole('form', { name: 'Edit “Model B”' }));
    const auto = f.getByLabelText(AUTO) as HTMLInputElement;
    expect(auto.checked).toBe(false);
    expect((f.getByLabelText(THRESHOLD) as HTMLInputElement).disabled).toBe(true);
    // Turned back on, it starts from the default.
    fireEvent.click(auto);
    expect((f.getByLabelText(THRESHOLD) as HTMLInputElement).value).toBe('80');
    fireEvent.click(f.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(within(modelItem('Model B')).getByText('Compacts at 80%')).toBeTruthy());

    expect(bodies(server, 'PATCH')).toEqual([
      expect.objectContaining({ name: 'Model A', compact_threshold: 0.9 }),
      expect.objectContaining({ name: 'Model B', compact_threshold: 0.8 }),
    ]);
  });

  it('explains a threshold outside 1–100 before sending anything', async () => {
    const server = setup();
    const f = await openAddForm();
    const threshold = f.getByLabelText(THRESHOLD) as HTMLInputElement;
    for (const value of ['0', '0.5', '101', '150', 'eighty', '', '-5']) {
      fireEvent.input(threshold, { target: { value } });
      fireEvent.click(f.getByRole('button', { name: 'Add model' }));
      expect(f.getByText(INVALID), value).toBeTruthy();
      expect(threshold.getAttribute('aria-invalid'), value).toBe('true');
      expect(document.activeElement, value).toBe(threshold);
    }
    expect(bodies(server, 'POST')).toEqual([]);

    // Turning compaction off leaves nothing to get wrong.
    fireEvent.click(f.getByLabelText(AUTO));
    expect(f.queryByText(INVALID)).toBeNull();
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));
    await screen.findByRole('heading', { name: 'Work', level: 3 });
    expect(bodies(server, 'POST')).toEqual([expect.objectContaining({ compact_threshold: null })]);
  });
});
