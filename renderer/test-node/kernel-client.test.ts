import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiError, CairnClient, EventStream } from '../../sidecar/src/client';
import { Notebook } from '../../sidecar/src/protocol';
import { type Harness, startHarness } from '../../sidecar/test/support/harness';
import { HAS_MATPLOTLIB_PYTHON, IPYTHON_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import { KernelController } from '../src/state/kernel-controller';
import type { KernelCell } from '../src/state/kernel-view';
import { SessionController } from '../src/state/session-controller';

// The kernel client, the session's one event subscription and the kernel panel's state against a real
// sidecar with real Python kernels (Debian's python3, with IPython and matplotlib).
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

async function until(probe: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!HAS_MATPLOTLIB_PYTHON)('the kernel panel state against a real sidecar', () => {
  let h: Harness;
  let client: CairnClient;
  let stream: EventStream;
  let session: SessionController;
  let kernels: KernelController;
  let sessionId: string;

  const cells = (): KernelCell[] =>
    kernels.getSnapshot().state.kernels.find((k) => k.name === 'default')?.cells ?? [];
  /** Runs a cell as the user does and waits for it to settle. */
  async function run(code: string): Promise<KernelCell> {
    const before = cells().length;
    await kernels.execute('default', code);
    await until(
      () => cells().length > before && !['running', 'waiting_input'].includes(cells().at(-1)!.status),
      code,
    );
    return cells().at(-1)!;
  }

  beforeAll(async () => {
    h = await startHarness({ env: IPYTHON_KERNEL_ENV });
    ({ sessionId } = await h.newSession());
    client = new CairnClient({ url: h.server.url, token: h.server.token });
    stream = new EventStream(client.backend, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
    session = new SessionController(client, stream, sessionId);
    kernels = new KernelController(client, session, sessionId);
    await session.start();
    await kernels.start();
  }, 60_000);
  afterAll(async () => {
    kernels?.dispose();
    session?.dispose();
    stream?.close();
    await h?.close();
  });

  it('runs a cell: streamed stdout, the value, the kernel idle, and the variables refreshed', async () => {
    expect(await client.listKernels(sessionId)).toEqual([]);
    const cell = await run("x = 40\nprint('hi')\nx + 2");
    expect(cell).toMatchObject({ status: 'done', success: true, toolCallId: null, turnId: null });
    expect(cell.outputs).toEqual([{ kind: 'stream', stream: 'stdout', text: 'hi\n' }]);
    expect(cell.returnValue?.text).toBe('42');
    const kernel = kernels.getSnapshot().state.kernels[0]!;
    expect(kernel).toMatchObject({ name: 'default', state: 'idle', ipython: true });
    await until(
      () => (kernels.getSnapshot().state.kernels[0]!.variables ?? []).some((v) => v.name === 'x'),
      'vars',
    );
    expect(kernels.getSnapshot().state.kernels[0]!.variables).toContainEqual({
      name: 'x',
      type: 'int',
      repr: '40',
    });
  });

  it('brings a matplotlib figure as an artifact the client fetches as a PNG blob', async () => {
    const cell = await run('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone');
    const artifact = cell.outputs
      .flatMap((o) => (o.kind === 'display' ? o.output.artifacts : []))
      .find((a) => a.mime === 'image/png');
    expect(artifact).toBeDefined();
    const blob = await client.artifactBlob(artifact!.id);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.length).toBe(artifact!.bytes);
  });

  it('answers input() through the input route', async () => {
    await kernels.execute('default', "name = input('Name? ')\nname.upper()");
    await until(() => cells().at(-1)?.input !== null && cells().at(-1)?.status === 'waiting_input', 'input');
    const request = cells().at(-1)!.input!;
    expect(request).toMatchObject({ prompt: 'Name? ', password: false });
    await kernels.reply('default', request.requestId, 'ada');
    await until(() => cells().at(-1)!.status === 'done', 'the answered cell');
    expect(cells().at(-1)!.returnValue?.text).toBe("'ADA'");
  });

  it('interrupts a sleeping cell, which ends with KeyboardInterrupt', async () => {
    await kernels.execute('default', 'import time\ntime.sleep(100)');
    await until(() => kernels.getSnapshot().state.kernels[0]!.state === 'busy', 'busy');
    await until(() => cells().at(-1)!.code.includes('sleep'), 'the sleeping cell');
    expect(await kernels.interrupt('default')).toBe(true);
    await until(() => cells().at(-1)!.status === 'failed', 'the interrupted cell');
    expect(cells().at(-1)!.error?.type).toBe('KeyboardInterrupt');
  });

  it('exports the notebook with outputs, and a fresh controller rebuilds the same cells from the journal', async () => {
    const blob = await client.notebookBlob(sessionId, 'default');
    const notebook = Notebook.parse(JSON.parse(await blob.text()));
    expect(notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source))).toEqual(
      cells().map((c) => c.code),
    );
    expect(notebook.cells[0]!.outputs.some((o) => o.output_type === 'stream')).toBe(true);

    const again = new KernelController(client, { listen: () => () => {} }, sessionId);
    await again.start();
    const rebuilt = again.getSnapshot().state.kernels[0]!.cells;
    expect(rebuilt.map((c) => [c.code, c.status, c.returnValue?.text ?? null])).toEqual(
      cells().map((c) => [c.code, c.status, c.returnValue?.text ?? null]),
    );
    again.dispose();
  });

  it('reports an unknown kernel with the API error', async () => {
    await expect(client.kernelVariables(sessionId, 'nope')).rejects.toBeInstanceOf(ApiError);
    await expect(client.notebookBlob(sessionId, 'nope')).rejects.toMatchObject({ status: 404 });
  });
});
