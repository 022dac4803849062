// What a Cairn server's health and capabilities routes answer, for the stand-in servers and fake fetches
// of renderer and electron tests. No Node imports: browser-side tests use it too.
import type { Capabilities } from '../../src/protocol';

/** GET /api/health. */
export function healthBody(version: string) {
  return { ok: true, name: 'cairn', version };
}

/** GET /api/capabilities: a remote server with projects, shell and files, unless `overrides` say otherwise. */
export function capabilitiesBody(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    mode: 'remote',
    projects: true,
    shell: true,
    files: true,
    kernels: false,
    mcp: false,
    version: '1.2.3',
    ...overrides,
  };
}
