import type { ProjectPython, UpdateKernelProviderRequest } from '../../../../sidecar/src/protocol';

/** What the provider form holds; the token is read from its field only when the form is sent. */
export interface ProviderFields {
  kind: 'local' | 'jupyter';
  url: string;
  kernelName: string;
  token: string;
}

/**
 * The body of PUT /api/kernels/provider (and of its test) from the form. "On the Cairn server" sends the
 * provider alone, so the saved Jupyter address stays for a later switch back. An empty token is left out,
 * which keeps the saved one; an empty kernel name keeps the saved kernelspec.
 */
export function providerRequest(fields: ProviderFields): UpdateKernelProviderRequest {
  if (fields.kind === 'local') return { provider: 'local' };
  const url = fields.url.trim();
  const kernelName = fields.kernelName.trim();
  const token = fields.token.trim();
  return {
    provider: 'jupyter',
    jupyter_url: url === '' ? null : url,
    ...(kernelName === '' ? {} : { jupyter_kernel_name: kernelName }),
    ...(token === '' ? {} : { jupyter_token: token }),
  };
}

/** A server message with any copy of the token masked: the token must never reach the screen. */
export function withoutSecret(message: string, secret: string): string {
  const trimmed = secret.trim();
  return trimmed === '' ? message : message.split(trimmed).join('••••');
}

/** How an interpreter is written on a command line: `py -3`, `/usr/bin/python3`. */
export function commandLine(python: Pick<ProjectPython, 'command' | 'args'>): string {
  return [python.command, ...python.args].map((part) => (/\s/.test(part) ? `"${part}"` : part)).join(' ');
}
