import { describe, expect, it } from 'vitest';
import { parseAllowedHosts, parseAllowedOrigins, parsePublicUrl } from '../../src/cli/serve-options';
import { UsageError } from '../../src/cli/usage';

describe('--allowed-hosts', () => {
  it('takes comma-separated names as a Host header carries them, without the port', () => {
    expect(parseAllowedHosts('Cairn.Example.com, box.lan,,10.0.0.5,::1,[fe80::1]')).toEqual([
      'cairn.example.com',
      'box.lan',
      '10.0.0.5',
      '[::1]',
      '[fe80::1]',
    ]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
  });

  it.each([
    'https://cairn.example.com',
    'cairn.example.com:8443',
    'cairn.example.com/ui',
    '*',
    '.example.com',
  ])('refuses %s', (value) => {
    expect(() => parseAllowedHosts(value)).toThrow(UsageError);
    expect(() => parseAllowedHosts(value)).toThrow(/--allowed-hosts takes host names/);
  });
});

describe('--allowed-origins', () => {
  it('takes origins as a browser sends them: lower-case, no default port, no trailing slash', () => {
    expect(
      parseAllowedOrigins(
        'https://Desk.Example.com, https://desk.example.com:8443/,http://127.0.0.1:5173,https://x.example:443,app://cairn',
      ),
    ).toEqual([
      'https://desk.example.com',
      'https://desk.example.com:8443',
      'http://127.0.0.1:5173',
      'https://x.example',
      'app://cairn',
    ]);
  });

  it.each([
    'desk.example.com',
    'https://desk.example.com/app',
    'https://desk.example.com?x=1',
    'https://user:pw@desk.example.com',
    'file:///tmp',
    'ftp://desk.example.com',
    '*',
    'null',
  ])('refuses %s', (value) => {
    expect(() => parseAllowedOrigins(value)).toThrow(/--allowed-origins takes origins/);
  });
});

describe('--public-url', () => {
  it('takes an https address, its path kept without a trailing slash; plain http only to this machine', () => {
    expect(parsePublicUrl(undefined)).toBeNull();
    expect(parsePublicUrl('https://cairn.example.com')).toBe('https://cairn.example.com');
    expect(parsePublicUrl(' https://Cairn.Example.com:443/ ')).toBe('https://cairn.example.com');
    expect(parsePublicUrl('https://cairn.example.com:8443/Team/cairn//')).toBe(
      'https://cairn.example.com:8443/Team/cairn',
    );
    expect(parsePublicUrl('http://127.0.0.1:8765/')).toBe('http://127.0.0.1:8765');
    expect(parsePublicUrl('http://localhost:8765/base')).toBe('http://localhost:8765/base');
    expect(parsePublicUrl('http://[::1]:8765')).toBe('http://[::1]:8765');
  });

  it.each([
    'cairn.example.com',
    'http://cairn.example.com',
    'http://localhost.example.com',
    'http://10.0.0.5:8765',
    'https://user:pw@cairn.example.com',
    'https://user@cairn.example.com',
    'https://cairn.example.com/?x=1',
    'https://cairn.example.com/#top',
    'ftp://cairn.example.com',
    '',
  ])('refuses %s, saying what it takes', (value) => {
    expect(() => parsePublicUrl(value)).toThrow(UsageError);
    expect(() => parsePublicUrl(value)).toThrow(
      /--public-url takes the https address browsers reach this server at, without query or fragment \(got ".*"\), e\.g\. --public-url https:\/\/cairn\.example\.com\./,
    );
  });
});
