import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The kernel tests run each behaviour on two interpreters; when one is missing they fail in obscure
// ways, so say here what to install.
describe('the Pythons the kernel tests need', () => {
  it('has python3 on PATH, for the stdlib driver', () => {
    const run = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 9))'], {
      encoding: 'utf8',
    });
    expect(run.stdout.trim(), 'python3 (3.9 or newer) must be on PATH: apt-get install python3').toBe('True');
  });

  it("has Debian's python3 with IPython and matplotlib, for the IPython driver", () => {
    const run = spawnSync(
      '/usr/bin/python3',
      ['-c', 'import IPython, matplotlib, ipykernel, jupyter_client'],
      {
        encoding: 'utf8',
      },
    );
    expect(
      run.status,
      `/usr/bin/python3 lacks a module (${run.stderr?.trim().split('\n').at(-1) ?? run.error?.message}): ` +
        'apt-get install python3-ipython python3-ipykernel python3-jupyter-client python3-matplotlib',
    ).toBe(0);
  });
});
