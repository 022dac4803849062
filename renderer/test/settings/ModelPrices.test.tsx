// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeServer, model } from './fake-server';

// A model's prices in US dollars per million tokens: four optional boxes, checked in place (a number, 0 or
// more), sent on a new config when set, and on an edit only when changed, so saving a form whose prices
// were not touched never clears prices set through the API.

const INVALID = 'Enter a number, 0 or more (for example 3 or 0.30), or leave it empty.';

function setup() {
  const server = fakeServer({
    models: [
      model({
        id: 'a',
        name: 'Model A',
        active: true,
        price_input: 3,
        price_output: 15,
        price_cache_read: 0.3,
      }),
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

const bodies = (server: ReturnType<typeof fakeServer>, method: string) =>
  server.requests.filter((r) => r.method === method).map((r) => r.body);

async function editForm() {
  await screen.findByRole('heading', { name: 'Model A', level: 3 });
  fireEvent.click(screen.getByRole('button', { name: 'Edit Model A' }));
  return within(screen.getByRole('form', { name: 'Edit “Model A”' }));
}

afterEach(() => cleanup());

describe('a model’s prices', () => {
  it('lists them with the model', async () => {
    setup();
    const row = (await screen.findByRole('heading', { name: 'Model A', level: 3 })).closest(
      'li',
    ) as HTMLElement;
    expect(within(row).getByText('Prices per million tokens').nextElementSibling?.textContent).toBe(
      'input $3.00 · output $15.00 · cache read $0.30 · cache write —',
    );
  });

  it('prefills them, and saving without touching them sends none', async () => {
    const server = setup();
    const f = await editForm();
    expect(f.getByRole('group', { name: 'Prices in US dollars per million tokens (optional)' })).toBeTruthy();
    const value = (label: string) => (f.getByLabelText(label) as HTMLInputElement).value;
    expect([value('Input'), value('Output'), value('Cache read'), value('Cache write')]).toEqual([
      '3',
      '15',
      '0.3',
      '',
    ]);
    fireEvent.input(f.getByLabelText('Name'), { target: { value: 'Renamed' } });
    fireEvent.click(f.getByRole('button', { name: 'Save changes' }));
    await screen.findByRole('heading', { name: 'Renamed', level: 3 });
    const [patch] = bodies(server, 'PATCH') as Record<string, unknown>[];
    expect(Object.keys(patch ?? {}).filter((k) => k.startsWith('price_'))).toEqual([]);
    expect(server.models[0]).toMatchObject({ price_input: 3, price_output: 15, price_cache_read: 0.3 });
  });

  it('sends a changed price, and null for one emptied', async () => {
    const server = setup();
    const f = await editForm();
    fireEvent.input(f.getByLabelText('Output'), { target: { value: '$12.5' } });
    fireEvent.input(f.getByLabelText('Cache read'), { target: { value: '  ' } });
    fireEvent.input(f.getByLabelText('Cache write'), { target: { value: '3.75' } });
    fireEvent.click(f.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bodies(server, 'PATCH')).toHaveLength(1));
    const [patch] = bodies(server, 'PATCH') as Record<string, unknown>[];
    expect(Object.fromEntries(Object.entries(patch ?? {}).filter(([k]) => k.startsWith('price_')))).toEqual({
      price_output: 12.5,
      price_cache_read: null,
      price_cache_write: 3.75,
    });
  });

  it('explains a price that is not a number, 0 or more, before sending anything', async () => {
    const server = setup();
    await screen.findByRole('heading', { name: 'Model A', level: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
    const f = within(screen.getByRole('form', { name: 'Add a model' }));
    fireEvent.input(f.getByLabelText('Name'), { target: { value: 'Work' } });
    fireEvent.input(f.getByLabelText('Model ID'), { target: { value: 'claude-opus-4-1' } });
    const input = f.getByLabelText('Input') as HTMLInputElement;
    for (const bad of ['-1', 'three', '1e3', '1,5']) {
      fireEvent.input(input, { target: { value: bad } });
      fireEvent.click(f.getByRole('button', { name: 'Add model' }));
      expect(f.getByText(INVALID), bad).toBeTruthy();
      expect(input.getAttribute('aria-invalid'), bad).toBe('true');
      expect(document.activeElement, bad).toBe(input);
    }
    fireEvent.input(input, { target: { value: '200000' } });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));
    expect(f.getByText('Enter at most 100,000.')).toBeTruthy();
    expect(bodies(server, 'POST')).toEqual([]);

    fireEvent.input(input, { target: { value: '0' } });
    fireEvent.click(f.getByRole('button', { name: 'Add model' }));
    await screen.findByRole('heading', { name: 'Work', level: 3 });
    const [created] = bodies(server, 'POST') as Record<string, unknown>[];
    expect(Object.fromEntries(Object.entries(created ?? {}).filter(([k]) => k.startsWith('price_')))).toEqual(
      {
        price_input: 0,
      },
    );
  });
});
