import tls from 'node:tls';

/** tls functions of newer Node (getCACertificates 22.15+, setDefaultCACertificates 22.19+/24.5+). */
interface TlsWithCaStore {
  getCACertificates?: (type: 'default' | 'system') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
}

/**
 * Makes the main process's own HTTPS (the remote backend check) trust the operating system's
 * certificates as well as Node's bundled list, as the window's Chromium does: otherwise a server
 * behind a company CA would pass in the window and fail the check. Returns false where this Node
 * cannot (Node 20 in tests); then only the bundled list applies.
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
