import { describe, expect, it } from 'vitest';
import { parseAllowedHosts, parseAllowedOrigins } from '../../src/cli/serve-options';
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
