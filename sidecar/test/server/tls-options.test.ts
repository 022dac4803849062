// --tls-cert and --tls-key checked before the server starts, with messages that name the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTlsCredentials } from '../../src/server/tls-options';
import { makeTestCertificate, type TestCertificate } from './test-certificate';

describe('loadTlsCredentials', () => {
  let cert: TestCertificate;
  let other: TestCertificate;
  beforeAll(() => {
    cert = makeTestCertificate({ names: ['cairn.test'] });
    other = makeTestCertificate({ names: ['other.test'] });
  });
  afterAll(() => {
    cert?.remove();
    other?.remove();
  });

  it('returns the certificate and key of a matching pair', () => {
    const loaded = loadTlsCredentials(cert.certFile, cert.keyFile);
    expect(loaded.cert.equals(cert.cert)).toBe(true);
    expect(loaded.key.equals(cert.key)).toBe(true);
  });

  it('names a file that is missing or a folder', () => {
    const missing = path.join(cert.dir, 'nope.pem');
    expect(() => loadTlsCredentials(missing, cert.keyFile)).toThrow(
      `${missing} (--tls-cert): it does not exist`,
    );
    expect(() => loadTlsCredentials(cert.certFile, cert.dir)).toThrow(
      `${cert.dir} (--tls-key): it is a folder`,
    );
  });

  it('refuses files that are not PEM, or swapped', () => {
    const junk = path.join(cert.dir, 'junk.pem');
    fs.writeFileSync(junk, 'not a certificate\n');
    expect(() => loadTlsCredentials(junk, cert.keyFile)).toThrow(
      /junk\.pem \(--tls-cert\) is not a PEM file/,
    );
    expect(() => loadTlsCredentials(cert.keyFile, cert.certFile)).toThrow(/is not a PEM certificate/);
    expect(() => loadTlsCredentials(cert.certFile, cert.certFile)).toThrow(
      /is not an unencrypted PEM private key/,
    );
  });

  it('refuses a key that belongs to another certificate', () => {
    expect(() => loadTlsCredentials(cert.certFile, other.keyFile)).toThrow(
      `The key in ${other.keyFile} (--tls-key) does not belong to the certificate in ${cert.certFile}`,
    );
  });

  it('refuses an expired certificate', () => {
    const inThreeDays = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    expect(() => loadTlsCredentials(cert.certFile, cert.keyFile, inThreeDays)).toThrow(/expired on/);
  });
});
