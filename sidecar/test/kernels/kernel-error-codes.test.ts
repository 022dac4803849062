// A cell that could not run ends in `kernel.error` with a code of the one closed set, read strictly: a
// code outside it would reach a client as `internal` and lose what it says.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KernelEvent } from '../../src/kernels/kernel-types';
import { ErrorCode } from '../../src/protocol';
import { makeTempDir, removeDir } from '../tools/tool-context';
import { closeTestSessions, openTestSession, STDLIB, type TestSession } from './kernel-support';

afterEach(closeTestSessions);

/** The one `kernel.error` so far, its code checked against the closed set. */
function theError(t: TestSession): Extract<KernelEvent, { type: 'kernel.error' }> {
  const errors = t.events.ofType('kernel.error');
  expect(errors).toHaveLength(1);
  const event = errors[0]!;
  expect(ErrorCode.options).toContain(event.code);
  return event;
}

describe('kernel.error codes', () => {
  it('a kernel shut down: conflict, as a request to it over HTTP is answered', async () => {
    const t = await openTestSession(STDLIB);
    const kernel = t.session.kernel();
    await kernel.shutdown();
    const result = await kernel.execute('1');
    expect(result.error?.type).toBe('KernelShutdown');
    expect(theError(t)).toMatchObject({ code: 'conflict', message: 'The kernel was shut down.' });
  });

  it('a call cancelled before it ran: cancelled', async () => {
    const t = await openTestSession(STDLIB);
    const result = await t.session.kernel().execute('1', { signal: AbortSignal.abort() });
    expect(result.error?.type).toBe('ExecutionCancelled');
    expect(theError(t).code).toBe('cancelled');
  });

  it.skipIf(process.platform === 'win32')(
    'a Python that answers the version check but cannot run the driver: kernel_start_failed',
    async () => {
      const dir = await makeTempDir('cairn-fake-python-');
      try {
        const fake = path.join(dir, 'python3');
        await fs.writeFile(
          fake,
          '#!/bin/sh\ncase "$2" in *version_info*) echo 3.11.0; exit 0;; esac\necho "no driver here" >&2\nexit 3\n',
          { mode: 0o755 },
        );
        const t = await openTestSession({ pythonPath: fake, ipython: false });
        const result = await t.session.kernel().execute('1');
        expect(result.error?.type).toBe('KernelStartError');
        expect(theError(t).code).toBe('kernel_start_failed');
      } finally {
        await removeDir(dir);
      }
    },
  );
});
