import { Capabilities, Health } from '../../sidecar/src/protocol/entities';
import { RemoteBackendError, validateRemoteUrl } from './remote-backend';

/** What a check of a remote backend found. */
export type RemoteBackendCheck =
  | { ok: true; version: string; mode: Capabilities['mode'] }
  | {
      ok: false;
      problem: 'invalid-url' | 'unreachable' | 'redirect' | 'not-cairn' | 'unauthorized' | 'failed';
      message: string;
    };

type Fetch = typeof fetch;

const TIMEOUT_MS = 10_000;

function failure(problem: Exclude<RemoteBackendCheck, { ok: true }>['problem'], message: string) {
  return { ok: false as const, problem, message };
}

function describeRedirect(response: Response, requestUrl: string): RemoteBackendCheck {
  const from = new URL(requestUrl);
  let target: URL | null = null;
  try {
    const location = response.headers.get('location');
    target = location ? new URL(location, requestUrl) : null;
  } catch {
    target = null;
  }
  const elsewhere = target !== null && target.origin !== from.origin;
  const where = target === null ? 'another address' : elsewhere ? target.origin : target.pathname;
  return failure(
    'redirect',
    `${from.origin} redirects to ${where}. Cairn does not follow redirects` +
      `${elsewhere ? ', and the token was not sent there' : ''}. Enter the final address of the Cairn server instead.`,
  );
}

async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message.slice(0, 300);
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${response.status}`;
}

/**
 * Checks a remote backend before it is used: /api/health without the token (is this a Cairn server
 * at all?), then /api/capabilities with it (is the token right?). Redirects are never followed, so
 * the token cannot be carried to another host; a redirect is reported instead.
 */
export async function checkRemoteBackend(
  url: string,
  token: string,
  fetchImpl: Fetch = (input, init) => fetch(input, init),
  timeoutMs = TIMEOUT_MS,
): Promise<RemoteBackendCheck> {
  let base: string;
  try {
    base = validateRemoteUrl(url);
  } catch (error) {
    if (error instanceof RemoteBackendError) return failure('invalid-url', error.message);
    throw error;
  }

  const get = async (route: string, withToken: boolean): Promise<Response | RemoteBackendCheck> => {
    const target = `${base}${route}`;
    try {
      return await fetchImpl(target, {
        method: 'GET',
        redirect: 'manual',
        headers: withToken ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
      return failure(
        'unreachable',
        `Could not reach ${new URL(base).origin} (${reason}). Check the address and that the server is running.`,
      );
    }
  };
  const isRedirect = (response: Response) =>
    response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);

  const health = await get('/api/health', false);
  if (!(health instanceof Response)) return health;
  if (isRedirect(health)) return describeRedirect(health, `${base}/api/health`);
  const healthBody = health.ok ? Health.safeParse(await health.json().catch(() => null)) : null;
  if (!healthBody?.success) {
    return failure(
      'not-cairn',
      `${base} does not answer like a Cairn server (GET /api/health gave HTTP ${health.status}). Check the address, including any path prefix.`,
    );
  }

  const capabilities = await get('/api/capabilities', true);
  if (!(capabilities instanceof Response)) return capabilities;
  if (isRedirect(capabilities)) return describeRedirect(capabilities, `${base}/api/capabilities`);
  if (capabilities.status === 401 || capabilities.status === 403) {
    return failure(
      'unauthorized',
      `The server refused the token (${await errorMessageOf(capabilities)}). Copy the token again from the server.`,
    );
  }
  if (!capabilities.ok) {
    return failure('failed', `The server answered with an error: ${await errorMessageOf(capabilities)}.`);
  }
  const parsed = Capabilities.safeParse(await capabilities.json().catch(() => null));
  if (!parsed.success)
    return failure('not-cairn', `${base} answered /api/capabilities in an unexpected shape.`);
  return { ok: true, version: parsed.data.version, mode: parsed.data.mode };
}
