import { ApiError, CairnClient } from '../../../sidecar/src/client';
import type { Capabilities } from '../../../sidecar/src/protocol';

export type ProbeResult =
  | { kind: 'unreachable'; message: string }
  | { kind: 'not_cairn'; message: string }
  | { kind: 'token_rejected'; version: string }
  | { kind: 'ok'; version: string; capabilities: Capabilities };

/** Tells apart an unreachable address, something that is not Cairn, a rejected token, and success. */
export async function probeBackend(
  url: string,
  token: string,
  fetchImpl?: typeof fetch,
): Promise<ProbeResult> {
  const client = new CairnClient({ url, token }, fetchImpl);
  let version: string;
  try {
    version = (await client.health()).version;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'network')
      return { kind: 'unreachable', message: error.message };
    return { kind: 'not_cairn', message: error instanceof Error ? error.message : String(error) };
  }
  try {
    return { kind: 'ok', version, capabilities: await client.capabilities() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { kind: 'token_rejected', version };
    if (error instanceof ApiError && error.code === 'network')
      return { kind: 'unreachable', message: error.message };
    return { kind: 'not_cairn', message: error instanceof Error ? error.message : String(error) };
  }
}
