import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';

/** A PEM certificate (chain) and its unencrypted private key, for serving HTTPS. */
export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

/** A certificate or key that cannot be used; the message names the file and what to do. */
export class TlsSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsSetupError';
  }
}

/**
 * Reads and checks `--tls-cert` and `--tls-key` before the server starts, so a wrong file is reported
 * by name now rather than as an opaque OpenSSL error, or as every browser's handshake failing later.
 */
export function loadTlsCredentials(certFile: string, keyFile: string, now = new Date()): TlsCredentials {
  const cert = readPem(certFile, '--tls-cert', 'certificate');
  const key = readPem(keyFile, '--tls-key', 'private key');

  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new TlsSetupError(
      `${certFile} (--tls-cert) is not a PEM certificate (${reason(error)}). Give the certificate file, e.g. fullchain.pem.`,
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    throw new TlsSetupError(
      `${keyFile} (--tls-key) is not an unencrypted PEM private key (${reason(error)}). ` +
        'Give the key file, e.g. privkey.pem; an encrypted key must be decrypted first.',
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsSetupError(
      `The key in ${keyFile} (--tls-key) does not belong to the certificate in ${certFile} (--tls-cert). ` +
        'Give the key that was made together with this certificate.',
    );
  }
  if (new Date(certificate.validTo).getTime() < now.getTime()) {
    throw new TlsSetupError(
      `The certificate in ${certFile} expired on ${certificate.validTo}. Renew it, then start again.`,
    );
  }
  try {
    // What the server will do with them; catches what the checks above do not (an unusable chain).
    tls.createSecureContext({ cert, key });
  } catch (error) {
    throw new TlsSetupError(
      `The certificate ${certFile} and key ${keyFile} cannot be used for TLS: ${reason(error)}.`,
    );
  }
  return { cert, key };
}

function readPem(file: string, flag: string, what: string): Buffer {
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : reason(error);
    throw new TlsSetupError(`Cannot read the TLS ${what} ${file} (${flag}): ${why}.`);
  }
  if (!content.includes('-----BEGIN')) {
    throw new TlsSetupError(`${file} (${flag}) is not a PEM file: expected a "-----BEGIN" line.`);
  }
  return content;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
