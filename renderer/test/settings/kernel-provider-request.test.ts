import { describe, expect, it } from 'vitest';
import { UpdateKernelProviderRequest } from '../../../sidecar/src/protocol';
import {
  commandLine,
  providerRequest,
  withoutSecret,
} from '../../src/components/settings/kernel-provider-request';

describe('providerRequest', () => {
  it('sends the provider alone for the Cairn server, whatever the Jupyter fields hold', () => {
    const body = providerRequest({
      kind: 'local',
      url: 'https://j.example.com',
      kernelName: 'x',
      token: 'tok',
    });
    expect(body).toEqual({ provider: 'local' });
    expect(UpdateKernelProviderRequest.safeParse(body).success).toBe(true);
  });

  it('trims the Jupyter fields and leaves out an empty token (the saved one is kept)', () => {
    const body = providerRequest({
      kind: 'jupyter',
      url: '  https://j.example.com/  ',
      kernelName: ' python3 ',
      token: '   ',
    });
    expect(body).toEqual({
      provider: 'jupyter',
      jupyter_url: 'https://j.example.com/',
      jupyter_kernel_name: 'python3',
    });
    expect('jupyter_token' in body).toBe(false);
    expect(UpdateKernelProviderRequest.safeParse(body).success).toBe(true);
  });

  it('sends a typed token, an empty address as null, and no kernel name when it is empty', () => {
    const body = providerRequest({ kind: 'jupyter', url: ' ', kernelName: '', token: ' secret-token ' });
    expect(body).toEqual({ provider: 'jupyter', jupyter_url: null, jupyter_token: 'secret-token' });
    expect(UpdateKernelProviderRequest.safeParse(body).success).toBe(true);
  });
});

describe('withoutSecret', () => {
  it('masks every copy of the token, trimmed as it was sent', () => {
    expect(withoutSecret('bad token abc123 (abc123)', ' abc123 ')).toBe('bad token •••• (••••)');
  });

  it('leaves the message alone when no token was typed', () => {
    expect(withoutSecret('A Jupyter Server needs its token.', '')).toBe('A Jupyter Server needs its token.');
  });
});

describe('commandLine', () => {
  it('writes the command with its arguments, quoting parts with spaces', () => {
    expect(commandLine({ command: '/usr/bin/python3', args: [] })).toBe('/usr/bin/python3');
    expect(commandLine({ command: 'py', args: ['-3'] })).toBe('py -3');
    expect(commandLine({ command: 'C:\\Program Files\\Python312\\python.exe', args: [] })).toBe(
      '"C:\\Program Files\\Python312\\python.exe"',
    );
  });
});
