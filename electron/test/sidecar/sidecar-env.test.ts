import { describe, expect, it } from 'vitest';
import { sidecarBaseEnv, sidecarEnv } from '../../src/sidecar/sidecar-env';

describe('sidecarEnv', () => {
  const base: NodeJS.ProcessEnv = {
    HOME: '/Users/someone',
    PATH: '/usr/bin:/bin:/usr/sbin:/sbin',
    ELECTRON_RUN_AS_NODE: '1',
    ELECTRON_NO_ATTACH_CONSOLE: 'true',
    NODE_OPTIONS: '--require /tmp/evil.js',
    CAIRN_TOKEN: 'inherited',
    CAIRN_BACKEND_TOKEN: 'remote-backend-secret',
    CAIRN_BACKEND_URL: 'https://cairn.example.com',
    CAIRN_ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
    no_proxy: 'corp.internal,localhost',
    UNSET: undefined,
  };

  it('drops host-only variables and tokens, merges PATH login-first, adds loopback to NO_PROXY, sets the data dir', () => {
    const env = sidecarEnv(base, {
      loginPath: '/opt/homebrew/bin:/Users/someone/.local/bin:/usr/bin:/bin',
      platform: 'darwin',
      dataDir: '/Users/someone/.cairn',
    });
    // Strict: not even an empty CAIRN_TOKEN; the token goes over the IPC channel.
    expect(env).toStrictEqual({
      HOME: '/Users/someone',
      PATH: '/opt/homebrew/bin:/Users/someone/.local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
      CAIRN_ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
      NO_PROXY: 'corp.internal,localhost,127.0.0.1,::1',
      no_proxy: 'corp.internal,localhost,127.0.0.1,::1',
      CAIRN_DATA_DIR: '/Users/someone/.cairn',
    });
  });

  it('drops a CAIRN_TOKEN or backend token the user had set, in any spelling', () => {
    const env = sidecarBaseEnv(
      {
        PATH: '/usr/bin',
        CAIRN_TOKEN: 'users-own-token',
        cairn_token: 'lower-case-token',
        Cairn_Backend_Token: 'remote-backend-secret',
        CAIRN_BACKEND_URL: 'https://cairn.example.com',
      },
      { loginPath: null, platform: 'linux' },
    );
    expect(Object.keys(env).sort()).toEqual(['NO_PROXY', 'PATH', 'no_proxy']);
    for (const secret of ['users-own-token', 'lower-case-token', 'remote-backend-secret']) {
      expect(JSON.stringify(env)).not.toContain(secret);
    }
  });

  it('keeps the inherited PATH without a login PATH, and gives the same result when applied twice', () => {
    const once = sidecarBaseEnv(base, { loginPath: '/opt/tools/bin:/usr/bin', platform: 'linux' });
    const twice = sidecarBaseEnv(once, { loginPath: null, platform: 'linux' });
    expect(twice).toEqual(once);
    expect(sidecarBaseEnv({ PATH: '/usr/bin' }, { loginPath: null, platform: 'linux' }).PATH).toBe(
      '/usr/bin',
    );
    expect(sidecarBaseEnv({}, { loginPath: null, platform: 'linux' })).toEqual({
      PATH: '',
      NO_PROXY: '127.0.0.1,localhost,::1',
      no_proxy: '127.0.0.1,localhost,::1',
    });
  });

  it('on Windows keeps the Path spelling, uses ; and sets NO_PROXY once', () => {
    const env = sidecarBaseEnv(
      { Path: 'C:\\Windows\\system32;C:\\Windows;c:\\windows\\SYSTEM32', No_Proxy: '.corp' },
      { loginPath: null, platform: 'win32' },
    );
    expect(env).toEqual({
      Path: 'C:\\Windows\\system32;C:\\Windows',
      NO_PROXY: '.corp,127.0.0.1,localhost,::1',
    });
  });
});
