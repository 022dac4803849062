import tls from 'node:tls';

/** tls functions of newer Node (getCACertificates 22.15+, setDefaultCACertificates 22.19+/24.5+). */
interface TlsWithCaStore {
  getCACertificates?: (type: 'default' | 'system') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
}

/**
 * Makes this process's HTTPS trust the operating system's certificates as well as Node's bundled list,
 * as Chromium does: behind a company CA or TLS inspection, model calls from the sidecar (and the desktop
 * host's own backend check) would otherwise fail where the browser succeeds. Electron's utility process
 * drops `--use-system-ca` from execArgv, so it is done here, in-process. Returns false where this Node
 * cannot (Node 20); then only the bundled list applies.
 */
export function trustSystemCertificates(tlsModule: TlsWithCaStore = tls as TlsWithCaStore): boolean {
  const { getCACertificates, setDefaultCACertificates } = tlsModule;
  if (typeof getCACertificates !== 'function' || typeof setDefaultCACertificates !== 'function') return false;
  try {
    const merged = new Set([...getCACertificates('default'), ...getCACertificates('system')]);
    setDefaultCACertificates([...merged]);
    return true;
  } catch {
    // No readable system store: keep Node's defaults rather than fail to start.
    return false;
  }
}
