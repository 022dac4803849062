import { describe, expect, it } from 'vitest';
import {
  backendFromEnvironment,
  isLoopbackHostname,
  RemoteBackendError,
  validateRemoteUrl,
} from '../src/remote-backend';

describe('validateRemoteUrl', () => {
  const accepted: [string, string][] = [
    ['https://cairn.example.com', 'https://cairn.example.com'],
    ['https://cairn.example.com/', 'https://cairn.example.com'],
    ['  HTTPS://Cairn.Example.COM:443/  ', 'https://cairn.example.com'],
    ['https://cairn.example.com:8443/team/cairn/', 'https://cairn.example.com:8443/team/cairn'],
    ['https://10.0.0.5:8765', 'https://10.0.0.5:8765'],
    ['http://127.0.0.1:8765', 'http://127.0.0.1:8765'],
    ['http://localhost:8765', 'http://localhost:8765'],
    ['http://LOCALHOST:8765', 'http://localhost:8765'],
    ['http://[::1]:8765', 'http://[::1]:8765'],
  ];
  it.each(accepted)('accepts %s as %s', (raw, normalized) => {
    expect(validateRemoteUrl(raw)).toBe(normalized);
  });

  const refused: [string, RegExp][] = [
    ['http://example.com', /must use https:\/\/.*token unencrypted/],
    ['http://10.0.0.5:8765', /must use https/],
    ['http://127.0.0.1.evil.com', /must use https/],
    ['http://localhost.evil.com', /must use https/],
    ['http://[::2]:8765', /must use https/],
    ['http://128.0.0.1', /must use https/],
    ['ws://127.0.0.1:8765', /must start with https:\/\//],
    ['ftp://example.com', /must start with https/],
    ['file:///etc/passwd', /must start with https/],
    ['javascript:alert(1)', /must start with https/],
    ['https://user:pass@example.com', /user name or password/],
    ['https://token@example.com', /user name or password/],
    ['https://example.com/?token=abc', /query/],
    ['https://example.com/?', /query/],
    ['https://example.com/#token=abc', /fragment/],
    ['cairn.example.com', /is not a URL/],
    ['', /empty/],
    ['   ', /empty/],
    [`https://example.com/${'a'.repeat(2100)}`, /longer than/],
  ];
  it.each(refused)('refuses %s', (raw, message) => {
    expect(() => validateRemoteUrl(raw)).toThrow(RemoteBackendError);
    expect(() => validateRemoteUrl(raw)).toThrow(message);
  });

  it('knows the loopback names the window may reach over http, and only those', () => {
    for (const host of ['127.0.0.1', 'localhost', 'LocalHost', '[::1]'])
      expect(isLoopbackHostname(host)).toBe(true);
    for (const host of [
      '127.0.0',
      '127.0.0.1.nip.io',
      '0.0.0.0',
      '[::]',
      'localhost.localdomain',
      '127.0.0.256',
      '127.1.2.3',
    ]) {
      expect(isLoopbackHostname(host)).toBe(false);
    }
  });
});

describe('backendFromEnvironment', () => {
  it('is null when neither variable is set (or both are empty)', () => {
    expect(backendFromEnvironment({})).toBeNull();
    expect(backendFromEnvironment({ CAIRN_BACKEND_URL: '', CAIRN_BACKEND_TOKEN: ' ' })).toBeNull();
  });

  it('reads both, normalizing the URL', () => {
    expect(
      backendFromEnvironment({
        CAIRN_BACKEND_URL: 'https://Cairn.example.com/',
        CAIRN_BACKEND_TOKEN: 'tok-123',
      }),
    ).toEqual({ url: 'https://cairn.example.com', token: 'tok-123' });
  });

  it('refuses one without the other, saying which is missing', () => {
    expect(() => backendFromEnvironment({ CAIRN_BACKEND_URL: 'https://cairn.example.com' })).toThrow(
      /CAIRN_BACKEND_URL is set but CAIRN_BACKEND_TOKEN is not/,
    );
    expect(() => backendFromEnvironment({ CAIRN_BACKEND_TOKEN: 'tok' })).toThrow(
      /CAIRN_BACKEND_TOKEN is set but CAIRN_BACKEND_URL is not/,
    );
  });

  it('names the variable when the URL is refused, without echoing the token', () => {
    let message = '';
    try {
      backendFromEnvironment({
        CAIRN_BACKEND_URL: 'http://example.com',
        CAIRN_BACKEND_TOKEN: 'secret-token-xyz',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^CAIRN_BACKEND_URL: .*must use https/);
    expect(message).not.toContain('secret-token-xyz');
  });
});
