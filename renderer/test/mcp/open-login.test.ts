import { describe, expect, it } from 'vitest';
import { type LoginOpener, loginUrlToOpen, openLoginPage } from '../../src/components/mcp/open-login';

// The same policy as the desktop host's (electron/src/navigation-policy.ts loginUrlToOpen).
const TABLE: [string, string | null][] = [
  ['https://auth.example.com/authorize?state=s', 'https://auth.example.com/authorize?state=s'],
  ['http://127.0.0.1:4100/authorize', 'http://127.0.0.1:4100/authorize'],
  ['http://localhost/authorize', 'http://localhost/authorize'],
  ['http://[::1]:4100/authorize', 'http://[::1]:4100/authorize'],
  ['http://auth.example.com/authorize', null],
  ['http://localhost.evil.com/', null],
  ['https://user:pass@auth.example.com/', null],
  ['javascript:alert(1)', null],
  ['data:text/html,x', null],
  ['file:///etc/passwd', null],
  ['not a url', null],
  ['', null],
];

function recorder(bridge: LoginOpener['bridge'] = null) {
  const opened: unknown[][] = [];
  return { opened, opener: { bridge, open: (...args: unknown[]) => opened.push(args) } as LoginOpener };
}

describe('opening an MCP login page', () => {
  it.each(TABLE)('%s → %s', (url, expected) => {
    expect(loginUrlToOpen(url)).toBe(expected);
  });

  it('opens a new tab without a handle on this page in a browser, and refuses other schemes', async () => {
    const { opened, opener } = recorder();
    expect(await openLoginPage('https://auth.example.com/a', opener)).toBe(true);
    expect(await openLoginPage('javascript:alert(1)', opener)).toBe(false);
    expect(opened).toEqual([['https://auth.example.com/a', '_blank', 'noopener,noreferrer']]);
  });

  it('asks the desktop host instead when there is one, and passes on its refusal', async () => {
    const asked: string[] = [];
    const { opened, opener } = recorder({
      openLoginUrl: async (url) => {
        asked.push(url);
        if (url.includes('refuse')) throw new Error('refused by the host');
      },
    });
    expect(await openLoginPage('https://auth.example.com/a', opener)).toBe(true);
    await expect(openLoginPage('https://auth.example.com/refuse', opener)).rejects.toThrow(
      'refused by the host',
    );
    expect(await openLoginPage('ftp://auth.example.com/', opener)).toBe(false);
    expect(asked).toEqual(['https://auth.example.com/a', 'https://auth.example.com/refuse']);
    expect(opened).toEqual([]);
  });
});
