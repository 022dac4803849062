// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { capabilitiesBody, healthBody } from '../../../sidecar/test/support/api-bodies';
import { ConnectionScreen } from '../../src/components/ConnectionScreen';
import { I18nProvider } from '../../src/i18n/i18n';

const URL_ = 'http://cairn.test:4000';
const TOKEN = 'tok-SECRET-42';

const CAPABILITIES = capabilitiesBody();

const html = (status: number) =>
  new Response('<!doctype html><title>Not Found</title>', {
    status,
    headers: { 'content-type': 'text/html' },
  });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Seen {
  url: string;
  authorization: string | undefined;
}

/** Stubs the global fetch (probeBackend uses it) and records what was requested. */
function stubFetch(
  answer: (path: string, authorization: string | undefined) => Response | Promise<Response>,
) {
  const seen: Seen[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    seen.push({ url: String(input), authorization: headers.authorization });
    return answer(new URL(String(input)).pathname, headers.authorization);
  });
  vi.stubGlobal('fetch', fn);
  return seen;
}

function setup(initialUrl = URL_) {
  const onConnected = vi.fn();
  render(
    <I18nProvider locale="en">
      <ConnectionScreen initialUrl={initialUrl} onConnected={onConnected} />
    </I18nProvider>,
  );
  const url = screen.getByLabelText('Server address') as HTMLInputElement;
  const token = screen.getByLabelText('Access token') as HTMLInputElement;
  return { onConnected, url, token };
}

function fill(token: string, url?: string) {
  if (url !== undefined) fireEvent.input(screen.getByLabelText('Server address'), { target: { value: url } });
  fireEvent.input(screen.getByLabelText('Access token'), { target: { value: token } });
}

const outcome = async () => {
  const title = await waitFor(() => {
    const found = document.querySelector('.connection-result');
    if (!found) throw new Error('no result yet');
    return found as HTMLElement;
  });
  return { kind: title.dataset.kind, text: title.textContent ?? '' };
};

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ConnectionScreen', () => {
  it('has labelled fields with the token as a password', () => {
    const { url, token } = setup();
    expect(url.value).toBe(URL_);
    expect(token.type).toBe('password');
    expect(token.value).toBe('');
  });

  it('says nothing answered when the address is unreachable', async () => {
    stubFetch(() => {
      throw new TypeError('fetch failed');
    });
    setup();
    fill(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await outcome();
    expect(result.kind).toBe('unreachable');
    expect(result.text).toContain(`Nothing answered at ${URL_}. Check the address and that the server runs.`);
  });

  it('says the server is not Cairn for an HTML page or a 404', async () => {
    stubFetch(() => html(200));
    setup();
    fill(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    let result = await outcome();
    expect(result.kind).toBe('not_cairn');
    expect(result.text).toContain(`Something answered at ${URL_}, but it is not a Cairn server.`);

    stubFetch(() => json(404, { message: 'Route not found' }));
    fill('other-token');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    result = await outcome();
    expect(result.kind).toBe('not_cairn');
  });

  it('says the token was rejected when health answers but the API refuses it', async () => {
    stubFetch((path) =>
      path === '/api/health'
        ? json(200, healthBody('1.2.3'))
        : json(401, { error: { code: 'unauthorized', message: 'Missing or wrong token.' } }),
    );
    setup();
    fill('wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await outcome();
    expect(result.kind).toBe('token_rejected');
    expect(result.text).toContain(`Cairn 1.2.3 answered at ${URL_}, but it rejected the token.`);
  });

  it('shows version, mode and features when all is well, then connects', async () => {
    const seen = stubFetch((path, authorization) => {
      if (path === '/api/health') return json(200, healthBody('1.2.3'));
      if (authorization !== `Bearer ${TOKEN}`)
        return json(401, { error: { code: 'unauthorized', message: 'No.' } });
      return json(200, CAPABILITIES);
    });
    const { onConnected } = setup();
    fill(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await outcome();
    expect(result.kind).toBe('ok');
    expect(result.text).toContain(`Cairn 1.2.3 answered at ${URL_}.`);
    expect(screen.getByText('Mode: Remote')).toBeTruthy();
    expect(screen.getByText('Project folders: available')).toBeTruthy();
    expect(screen.getByText('MCP servers: not available')).toBeTruthy();

    const probes = seen.length;
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(onConnected).toHaveBeenCalledWith({ url: URL_, token: TOKEN });
    expect(seen.length).toBe(probes);
    expect(sessionStorage.getItem('cairn.token')).toBe(TOKEN);
    expect(sessionStorage.getItem('cairn.backend')).toBe(URL_);
    for (const request of seen) expect(request.url).not.toContain(TOKEN);
    expect(document.body.innerHTML).not.toContain(TOKEN);
  });

  it('Connect probes by itself and does not connect on failure', async () => {
    let healthy = false;
    stubFetch((path) => {
      if (!healthy) throw new TypeError('fetch failed');
      if (path === '/api/health') return json(200, healthBody('2.0.0'));
      return json(200, { ...CAPABILITIES, mode: 'local', version: '2.0.0' });
    });
    const { onConnected } = setup();
    fill(TOKEN, `${URL_}/`);
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await outcome()).kind).toBe('unreachable');
    expect(onConnected).not.toHaveBeenCalled();

    healthy = true;
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(onConnected).toHaveBeenCalledWith({ url: URL_, token: TOKEN }));
  });

  it('validates the fields before probing', () => {
    const seen = stubFetch(() => json(200, {}));
    setup('');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(screen.getByText('Enter an address starting with http:// or https://.')).toBeTruthy();
    expect(screen.getByText('Enter the access token.')).toBeTruthy();
    expect(screen.getByLabelText('Server address').getAttribute('aria-invalid')).toBe('true');
    expect(seen).toEqual([]);
  });

  it('moves a token pasted with the address into the token field', () => {
    const { url, token } = setup('');
    fireEvent.input(url, { target: { value: `${URL_}/#token=${TOKEN}` } });
    expect(url.value).toBe(URL_);
    expect(token.value).toBe(TOKEN);
    expect(screen.getByText('The token in the address was moved to the token field.')).toBeTruthy();
  });
});
