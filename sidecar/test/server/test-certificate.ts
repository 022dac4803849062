// A throwaway self-signed certificate made with the openssl command line, for tests that serve HTTPS.
import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/harness';

export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
  /** base64 SHA-256 of the public key (SPKI), as Chromium's --ignore-certificate-errors-spki-list takes it. */
  spkiHash: string;
  remove(): void;
}

/**
 * A P-256 certificate for `names` (DNS) and `ips`, valid for two days. It is its own CA (openssl req
 * -x509 marks it so), so NODE_EXTRA_CA_CERTS=certFile makes Node trust it.
 */
export function makeTestCertificate(options: { names: string[]; ips?: string[] }): TestCertificate {
  const dir = tempDir('tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const san = [...options.names.map((n) => `DNS:${n}`), ...(options.ips ?? []).map((ip) => `IP:${ip}`)];
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${options.names[0] ?? 'localhost'}`,
      '-addext',
      `subjectAltName=${san.join(',')}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { encoding: 'utf8' },
  );
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(
      'These tests make a TLS certificate with the openssl command, which is not installed. ' +
        'Install the Debian package openssl: apt-get install -y openssl',
    );
  }
  if (result.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`openssl could not make a test certificate (exit ${result.status}):\n${result.stderr}`);
  }
  const cert = fs.readFileSync(certFile);
  const key = fs.readFileSync(keyFile);
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return {
    dir,
    certFile,
    keyFile,
    cert,
    key,
    spkiHash: createHash('sha256').update(spki).digest('base64'),
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
