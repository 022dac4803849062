import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { createFileLogger, redact, silentLogger } from '../../src/log/logger';
import { registerSecret } from '../../src/secrets/known-secrets';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'cairn-log-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const readLines = (name = 'cairn.log'): Record<string, unknown>[] =>
  fs
    .readFileSync(path.join(dir, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('createFileLogger', () => {
  it('writes JSON lines with time, level, msg and fields, honoring the level', () => {
    const log = createFileLogger({ dir, level: 'info' });
    log.debug('hidden');
    log.info('hello', { turn: 3 });
    log.child({ conversation: 'c1' }).child({ turn: 4 }).warn('careful', { msg: 'not the message' });

    const lines = readLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'hello', turn: 3 });
    expect(Number.isNaN(Date.parse(String(lines[0]?.time)))).toBe(false);
    expect(Object.keys(lines[0] ?? {}).slice(0, 3)).toEqual(['time', 'level', 'msg']);
    expect(lines[1]).toMatchObject({ level: 'warn', msg: 'careful', conversation: 'c1', turn: 4 });
    expect(lines[1]?.msg_).toBe('not the message');
  });

  it('creates the folder if needed, owner-only like its files whatever the umask', () => {
    const nested = path.join(dir, 'a', 'b');
    const umask = process.umask(0o022);
    try {
      createFileLogger({ dir: nested, fileName: 'x.log' }).error('boom');
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(path.join(nested, 'x.log'), 'utf8')).toContain('"boom"');
    if (process.platform !== 'win32') {
      for (const folder of [path.join(dir, 'a'), nested])
        expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(nested, 'x.log')).mode & 0o777).toBe(0o600);
    }
  });

  it('rotates by size, keeps maxFiles files and the newest lines', () => {
    const maxBytes = 1000;
    const log = createFileLogger({ dir, maxBytes, maxFiles: 3 });
    for (let i = 0; i < 200; i++) log.info('line', { i, pad: 'x'.repeat(40) });

    expect(fs.readdirSync(dir).sort()).toEqual(['cairn.1.log', 'cairn.2.log', 'cairn.log']);
    const order = [...readLines('cairn.2.log'), ...readLines('cairn.1.log'), ...readLines('cairn.log')].map(
      (l) => l.i as number,
    );
    // Oldest to newest without gaps, ending with the last line written.
    expect(order.at(-1)).toBe(199);
    expect(order).toEqual(order.map((_, k) => (order[0] ?? 0) + k));
    expect(order[0]).toBeGreaterThan(0);
    for (const name of fs.readdirSync(dir)) {
      expect(fs.statSync(path.join(dir, name)).size).toBeLessThanOrEqual(maxBytes);
    }
  });

  it('with maxFiles 1 keeps only the live file', () => {
    const log = createFileLogger({ dir, maxBytes: 300, maxFiles: 1 });
    for (let i = 0; i < 50; i++) log.info('line', { i });
    expect(fs.readdirSync(dir)).toEqual(['cairn.log']);
    expect(readLines().at(-1)?.i).toBe(49);
  });

  it('serializes errors with name, message, code, stack and cause', () => {
    const log = createFileLogger({ dir });
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    log.error('failed', { err: new CairnError('model_unreachable', 'Cannot reach the model.', { cause }) });

    const err = readLines()[0]?.err as Record<string, unknown>;
    expect(err).toMatchObject({
      name: 'CairnError',
      message: 'Cannot reach the model.',
      code: 'model_unreachable',
    });
    expect(String(err.stack)).toContain('logger.test.ts');
    expect(err.cause).toMatchObject({ name: 'Error', message: 'socket hang up', code: 'ECONNRESET' });
  });

  it('survives values JSON cannot express', () => {
    const log = createFileLogger({ dir });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    log.info('odd', { cyclic, big: 10n, map: new Map([['k', 1]]), fn: () => 1 });
    expect(readLines()[0]).toMatchObject({ cyclic: { a: 1, self: '[Circular]' }, big: '10', map: { k: 1 } });
  });

  it('never throws, even when the folder cannot be written', () => {
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const log = createFileLogger({ dir: blocker, alsoStderr: false });
    expect(() => log.error('lost', { x: 1 })).not.toThrow();
    expect(() => silentLogger.child({ a: 1 }).info('nothing')).not.toThrow();
  });

  it('keeps registered secrets and credential patterns out of the file', () => {
    const secret = 'registered-secret-value-0123456789';
    registerSecret(secret);
    const log = createFileLogger({ dir });
    const apiKey = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    log.info(`using key ${apiKey} and ${secret}`, {
      nested: { note: `prefix ${secret} suffix` },
      headers: { 'x-api-key': 'plainkey1234', authorization: 'Bearer tok_abcdefghijkl', 'X-Api-Key': 'abc' },
      url: 'http://127.0.0.1:4567/#token=urltokenvalue123',
      body: JSON.stringify({ token: 'inner-token-value', api_key: 'inner-api-key', key: 'k-value-1' }),
      token: 'field-token-value',
      api_key: 'field-api-key',
      key: 'field-key-value',
      header: 'Authorization: Bearer header.jwt.value',
      basic: 'authorization=Basic dXNlcjpwYXNzd29yZA==; next',
    });

    const text = fs.readFileSync(path.join(dir, 'cairn.log'), 'utf8');
    for (const leaked of [
      secret,
      apiKey,
      'plainkey1234',
      'tok_abcdefghijkl',
      'urltokenvalue123',
      'inner-token-value',
      'inner-api-key',
      'k-value-1',
      'field-token-value',
      'field-api-key',
      'field-key-value',
      'header.jwt.value',
      'dXNlcjpwYXNzd29yZA',
      '"abc"',
    ]) {
      expect(text).not.toContain(leaked);
    }
    // Still one parseable line with the structure intact.
    const line = readLines()[0] ?? {};
    expect(line.msg).toBe('using key [REDACTED] and [REDACTED]');
    expect(line.headers).toEqual({
      'x-api-key': '[REDACTED]',
      authorization: '[REDACTED]',
      'X-Api-Key': '[REDACTED]',
    });
    expect(line.url).toBe('http://127.0.0.1:4567/#token=[REDACTED]');
    expect(JSON.parse(String(line.body))).toEqual({
      token: '[REDACTED]',
      api_key: '[REDACTED]',
      key: '[REDACTED]',
    });
    expect(line.header).toBe('Authorization: Bearer [REDACTED]');
    expect(line.basic).toBe('authorization=Basic [REDACTED]; next');
  });
});

describe('redact', () => {
  it('leaves ordinary text and non-secret fields alone', () => {
    const text =
      '{"input_tokens":120,"tokens":"many","keyboard":"qwerty","msg":"Basic setup; Bearer of bad news","key":7}';
    expect(redact(text)).toBe(text);
  });

  it('redacts secrets containing characters JSON escapes', () => {
    const secret = 'quote"and\\slash-secret';
    registerSecret(secret);
    const line = JSON.stringify({ msg: `x ${secret} y` });
    expect(redact(line)).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(redact(`raw ${secret}`)).toBe('raw [REDACTED]');
  });
});
