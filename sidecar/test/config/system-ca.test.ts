import { describe, expect, it } from 'vitest';
import { trustSystemCertificates } from '../../src/config/system-ca';

describe('trustSystemCertificates', () => {
  it('adds the system store to the defaults where Node can, without duplicates', () => {
    let installed: string[] | null = null;
    const ok = trustSystemCertificates({
      getCACertificates: (type) => (type === 'default' ? ['bundled-a', 'shared'] : ['shared', 'company-ca']),
      setDefaultCACertificates: (certs) => {
        installed = certs;
      },
    });
    expect(ok).toBe(true);
    expect(installed).toEqual(['bundled-a', 'shared', 'company-ca']);
  });

  it('leaves the defaults alone where Node lacks the API or the store cannot be read', () => {
    expect(trustSystemCertificates({})).toBe(false);
    let touched = false;
    const ok = trustSystemCertificates({
      getCACertificates: () => {
        throw new Error('no system store');
      },
      setDefaultCACertificates: () => {
        touched = true;
      },
    });
    expect(ok).toBe(false);
    expect(touched).toBe(false);
  });
});
