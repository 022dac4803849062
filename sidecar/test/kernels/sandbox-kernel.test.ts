import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KernelManager } from '../../src/kernels/kernel-manager';
import { KernelProcess } from '../../src/kernels/kernel-process';
import { clearPythonChecks, resolvePython } from '../../src/kernels/python-resolver';
import type { SandboxSpec } from '../../src/process/sandbox';
import { describeSandbox, requireBubblewrap } from '../support/sandbox-support';
import { makeTempDir, removeDir } from '../tools/tool-context';
import { DRIVER_PATH, FLAVOURS, kernelEnv } from './kernel-support';

// A local kernel in its project's sandbox (real bubblewrap): confined like Bash, and still interrupted by
// SIGINT, which must reach Python without ending bwrap, the leader of the kernel's process group.

const OUTSIDE_TMP = fs.existsSync('/var/tmp') ? '/var/tmp' : process.env.HOME!;

describeSandbox('a kernel in the sandbox', () => {
  beforeAll(requireBubblewrap);
  let project: string;
  let dataDir: string;
  let spec: SandboxSpec;

  beforeAll(async () => {
    project = await makeTempDir('cairn-sbx-kernel-');
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(OUTSIDE_TMP, 'cairn-sbx-kdata-')));
    fs.writeFileSync(path.join(dataDir, 'cairn.db'), 'data of cairn');
    spec = {
      projectRoot: project,
      writable: [],
      hidden: [dataDir],
      readable: [],
      sockets: [],
      network: false,
      bwrap: 'bwrap',
    };
  });
  afterAll(async () => {
    await removeDir(project);
    await removeDir(dataDir);
  });

  it("checks the project's own interpreter (its .venv, which the agent could have written) inside the sandbox", async () => {
    const marker = path.join(OUTSIDE_TMP, `cairn-venv-escape-${process.pid}.txt`);
    const venv = path.join(project, '.venv', 'bin');
    fs.mkdirSync(venv, { recursive: true });
    fs.writeFileSync(
      path.join(venv, 'python3'),
      `#!/bin/sh\necho ran > ${marker}\nexec /usr/bin/python3 "$@"\n`,
      { mode: 0o755 },
    );
    try {
      clearPythonChecks();
      const found = await resolvePython({ projectRoot: project, env: kernelEnv(), sandbox: spec });
      expect(found.source).toBe('venv');
      // It ran (its version was read) but could not write outside the project.
      expect(fs.existsSync(marker)).toBe(false);
      clearPythonChecks();
      await resolvePython({ projectRoot: project, env: kernelEnv() });
      expect(fs.existsSync(marker)).toBe(true);
    } finally {
      fs.rmSync(path.join(project, '.venv'), { recursive: true, force: true });
      fs.rmSync(marker, { force: true });
      clearPythonChecks();
    }
  });

  it.each(FLAVOURS)('runs confined cells with the $label, and SIGINT interrupts a cell', async (flavour) => {
    const kernel = await KernelProcess.start({
      python: flavour.python,
      cwd: project,
      env: kernelEnv(),
      driverPath: DRIVER_PATH,
      ipython: flavour.ipython,
      sandbox: spec,
    });
    try {
      const probe = await kernel.execute(
        [
          'import os',
          "open('made.txt', 'w').write('in project')",
          'def tried(f):',
          '    try:',
          '        f()',
          "        return 'allowed'",
          '    except OSError as e:',
          '        return type(e).__name__',
          `[tried(lambda: open('${OUTSIDE_TMP}/cairn-escape.txt', 'w')), tried(lambda: open('${dataDir}/cairn.db').read()), len([p for p in os.listdir('/proc') if p.isdigit()])]`,
        ].join('\n'),
      );
      expect(probe.success, JSON.stringify(probe.error)).toBe(true);
      expect(fs.readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('in project');
      // Read-only system, no data directory, and only bwrap's init and the driver in /proc.
      expect(probe.returnValue?.['text/plain']).toBe("['OSError', 'FileNotFoundError', 2]");

      const sleeping = kernel.execute('import time\ntime.sleep(60)');
      await new Promise((resolve) => setTimeout(resolve, 300));
      kernel.interrupt();
      const interrupted = await sleeping;
      expect(interrupted.success).toBe(false);
      expect(interrupted.error?.type).toBe('KeyboardInterrupt');
      // The kernel lives on, its state with it.
      expect(kernel.isAlive).toBe(true);
      expect((await kernel.execute('1 + 1')).returnValue?.['text/plain']).toBe('2');
    } finally {
      await kernel.kill();
    }
  });
});

describe('a sandboxed project’s kernels on a Jupyter Server', () => {
  it('are refused with what to do, before anything starts there', async () => {
    let asked = 0;
    const manager = new KernelManager({
      env: kernelEnv,
      warm: false,
      remote: async () => {
        asked += 1;
        return { baseUrl: 'http://127.0.0.1:9', token: 't', kernelName: 'python3' };
      },
    });
    const dir = await makeTempDir('cairn-sbx-remote-');
    try {
      const kernels = manager.openSession('ses_remote', {
        projectRoot: dir,
        kernelsDir: path.join(dir, 'k'),
        artifactsDir: path.join(dir, 'a'),
        sandbox: async () => ({
          projectRoot: dir,
          writable: [],
          hidden: [],
          readable: [],
          sockets: [],
          network: true,
          bwrap: 'bwrap',
        }),
      });
      const result = await kernels.kernel().execute('1');
      expect(asked).toBeGreaterThan(0);
      expect(result.success).toBe(false);
      expect(result.error?.message).toMatch(/sandbox.*Jupyter Server.*this machine/s);
    } finally {
      await manager.shutdownAll();
      await removeDir(dir);
    }
  });
});
