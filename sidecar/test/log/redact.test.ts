// redact takes credentials out of text bound for the log or the wire, whether or not they were registered,
// and keeps the rest readable.
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/log/redact';
import { LEAKS } from '../support/leaked-credentials';

describe('redact', () => {
  it.each(LEAKS)('takes the credential out of %j', (text, secret) => {
    const out = redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it('keeps what identifies the place: the user and host of a URL, the names of parameters', () => {
    expect(redact('https://alice:hunter2@proxy.example:8080/v1')).toBe(
      'https://alice:[REDACTED]@proxy.example:8080/v1',
    );
    expect(redact('/cb?page=2&api_key=abc123&sort=asc')).toBe('/cb?page=2&api_key=[REDACTED]&sort=asc');
  });

  it('leaves ordinary failure lines alone', () => {
    for (const text of [
      "Error: ENOENT: no such file or directory, open '/tmp/x'",
      'SqliteError: UNIQUE constraint failed: sessions.id',
      'http://127.0.0.1:4567/api/sessions/abc?limit=20&before=7',
      'keyboard=qwerty monkey=banana sort_key=name max_tokens=1024 host:port@build',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });
});
