// A failure inside Cairn is reported with its first line, so the person can recognise it (a full disk, a
// locked database) without the log; that line and the log entry must carry no credential the failing
// library happened to quote: a URL's password, a secret query or form parameter, a header, an API key.
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { internalFailure } from '../../src/log/internal-failure';
import { createFileLogger } from '../../src/log/logger';
import { registerSecret } from '../../src/secrets/known-secrets';
import { LEAKS } from '../support/leaked-credentials';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'cairn-internal-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('internalFailure', () => {
  const logFile = () => fs.readFileSync(path.join(dir, 'cairn.log'), 'utf8');

  it('reports the first line without credentials, and logs none', () => {
    const logger = createFileLogger({ dir });
    const text = LEAKS.map(([t]) => t).join('; ');
    // Spread over lines of their own: each is the first line once.
    for (const [line, secret] of LEAKS) {
      const failure = internalFailure(logger, 'request failed', new Error(`${line}\nsecond line`));
      expect(failure.code).toBe('internal');
      expect(failure.message).toContain('[REDACTED]');
      expect(failure.message).not.toContain(secret);
      expect(failure.message).not.toContain('second line');
      expect(failure.message).toMatch(/error id err_[0-9a-f]{12}/);
    }
    internalFailure(logger, 'request failed', new Error(text));
    const logged = logFile();
    for (const [, secret] of LEAKS) expect(logged).not.toContain(secret);
  });

  it('redacts before it shortens, so a registered secret cut at the limit does not leak its start', () => {
    const secret = `registered-${'s'.repeat(40)}-end`;
    registerSecret(secret);
    const failure = internalFailure(
      createFileLogger({ dir }),
      'x',
      new Error(`${'a'.repeat(170)} ${secret}`),
    );
    expect(failure.message).not.toContain('registered-sss');
    expect(failure.message).toContain('[REDACTED]');
  });
});
