import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness';
import { kernelEvents, STDLIB_KERNEL_ENV } from '../support/kernel-harness';

describe('kernels of a project session', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it.skipIf(process.platform === 'win32')(
    "run none of the project's Python until a cell runs; then the first kernel starts cold and a spare warms",
    async () => {
      h = await startHarness({ env: STDLIB_KERNEL_ENV }); // the warm spare is on by default
      const marker = path.join(h.dataDir, 'venv-python-ran');
      const bin = path.join(h.projectDir, '.venv', 'bin');
      await fs.mkdir(bin, { recursive: true });
      // The project's interpreter, which the resolver runs: notes each run, then is the system's python3.
      await fs.writeFile(
        path.join(bin, 'python3'),
        `#!/bin/sh\necho run >> '${marker}'\nexec python3 "$@"\n`,
        {
          mode: 0o755,
        },
      );
      const { sessionId } = await h.newSession();

      // A turn that uses no kernel: each turn of a project session opens its kernels, which used to warm one.
      h.model.enqueue({ content: [{ type: 'text', text: 'no code today' }] });
      const quiet = await h.startTurn(sessionId, 'hello');
      expect((await h.waitForTurnEnd(quiet.id)).status).toBe('completed');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(existsSync(marker)).toBe(false);
      expect(await kernelEvents(h, sessionId)).toEqual([]);

      h.model.enqueue(
        { content: [{ type: 'tool_use', name: 'execute_code', input: { code: '1 + 1' } }] },
        { content: [{ type: 'tool_use', name: 'execute_code', input: { code: '2 + 2', kernel: 'other' } }] },
        { content: [{ type: 'text', text: 'done' }] },
      );
      const busy = await h.startTurn(sessionId, 'compute');
      expect((await h.waitForTurnEnd(busy.id)).status).toBe('completed');
      expect(existsSync(marker)).toBe(true);
      const started = (await kernelEvents(h, sessionId)).filter((e) => e.type === 'kernel.started');
      expect(started).toEqual([
        expect.objectContaining({ kernel: 'default', warm: false, reason: 'first_use' }),
        expect.objectContaining({ kernel: 'other', warm: true, reason: 'first_use' }),
      ]);
    },
  );
});
