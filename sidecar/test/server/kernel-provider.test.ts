import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CairnEvent,
  KernelExecuteAccepted,
  KernelProviderSettings,
  KernelProviderTestResult,
  KernelVariableList,
} from '../../src/protocol';
import {
  serverKernelIds,
  startJupyterServer,
  type TestJupyterServer,
} from '../kernels/jupyter/jupyter-server';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import {
  kernelEvents,
  STDLIB_KERNEL_ENV,
  toolResultJson,
  waitForExecutionEnd,
} from '../support/kernel-harness';
import { useKeyringInProcess } from '../support/keyring-in-process';
import { waitFor } from '../tools/tool-context';

type ErrorBody = { error: { code: string; message: string } };

describe('kernels on a Jupyter Server (a real jupyter-server, token in a real keyring)', () => {
  useKeyringInProcess();
  let jupyter: TestJupyterServer;
  let h: Harness;
  beforeAll(async () => {
    jupyter = await startJupyterServer();
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await jupyter?.stop();
  });

  const provider = (body: Record<string, unknown>) =>
    h.api<KernelProviderSettings & ErrorBody>('PUT', '/api/kernels/provider', body);
  const route = (sessionId: string, name: string, action: string) =>
    `/api/sessions/${sessionId}/kernels/${name}/${action}`;

  it('starts on this machine, with no server saved', async () => {
    const res = await h.api<KernelProviderSettings>('GET', '/api/kernels/provider');
    expect(res.body).toEqual({
      provider: 'local',
      jupyter: { url: null, kernel_name: 'python3', has_token: false },
      env_override: false,
    });
  });

  it('refuses a plain-http address off this machine and a server without a token', async () => {
    const plain = await provider({
      provider: 'jupyter',
      jupyter_url: 'http://jupyter.example.com/',
      jupyter_token: 'x'.repeat(20),
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/plain http/);
    const noToken = await provider({ provider: 'jupyter', jupyter_url: jupyter.baseUrl });
    expect(noToken.status).toBe(400);
    expect(noToken.body.error.message).toMatch(/token/);
    const extra = await provider({ provider: 'local', surprise: true });
    expect(extra.status).toBe(400);
    // Nothing was saved by the refusals.
    expect((await h.api<KernelProviderSettings>('GET', '/api/kernels/provider')).body.provider).toBe('local');
  });

  it('tests a server before saving it: a wrong token is named as such, the right one lists the kernelspecs', async () => {
    const wrong = await h.api<ErrorBody>('POST', '/api/kernels/provider/test', {
      provider: 'jupyter',
      jupyter_url: jupyter.baseUrl,
      jupyter_token: 'not-the-token-0123456789',
    });
    expect(wrong.status).toBe(502);
    expect(wrong.body.error.code).toBe('jupyter_unreachable');
    expect(wrong.body.error.message).toMatch(/refused the token/);

    const right = await h.api<KernelProviderTestResult>('POST', '/api/kernels/provider/test', {
      provider: 'jupyter',
      jupyter_url: jupyter.baseUrl,
      jupyter_token: jupyter.token,
    });
    expect(right.status).toBe(200);
    expect(right.body.ok).toBe(true);
    expect(right.body.version).toMatch(/^\d+\.\d+/);
    expect(right.body.kernel_names).toContain('python3');
    // Testing starts nothing on the server and saves nothing here.
    expect(await serverKernelIds(jupyter)).toEqual([]);
    expect((await h.api<KernelProviderSettings>('GET', '/api/kernels/provider')).body.jupyter.has_token).toBe(
      false,
    );
  });

  let sessionId: string;

  it('saves the server with the token write-only, and the next kernel runs there', async () => {
    const saved = await provider({
      provider: 'jupyter',
      jupyter_url: jupyter.baseUrl,
      jupyter_token: jupyter.token,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      provider: 'jupyter',
      jupyter: { url: jupyter.baseUrl, kernel_name: 'python3', has_token: true },
      env_override: false,
    });
    expect(JSON.stringify(saved.body)).not.toContain(jupyter.token);

    ({ sessionId } = await h.newSession());
    const res = await h.api<KernelExecuteAccepted>('POST', route(sessionId, 'default', 'execute'), {
      code: 'import os\nx = 20\nprint("pid", os.getpid())\nx + 1',
    });
    expect(res.status).toBe(202);
    const end = await waitForExecutionEnd(h, sessionId);
    expect(end).toMatchObject({ type: 'kernel.result', success: true, return_value: { text: '21' } });
    const started = (await kernelEvents(h, sessionId)).find((e) => e.type === 'kernel.started');
    expect(started).toMatchObject({ pid: null, server: jupyter.baseUrl, ipython: true, reason: 'first_use' });
    expect(await serverKernelIds(jupyter)).toHaveLength(1);

    const vars = await h.api<KernelVariableList>('GET', route(sessionId, 'default', 'variables'));
    expect(vars.body.variables).toContainEqual(expect.objectContaining({ name: 'x', type: 'int' }));
  });

  it('passes input() through the same input route and interrupts through the same interrupt route', async () => {
    await h.api('POST', route(sessionId, 'default', 'execute'), {
      code: 'name = input("who? ")\nname.upper()',
    });
    const request = (await h.waitForEvent(sessionId, (e) => e.type === 'kernel.input_request')) as Extract<
      CairnEvent,
      { type: 'kernel.input_request' }
    >;
    expect(request.prompt).toBe('who? ');
    const replied = await h.api('POST', route(sessionId, 'default', 'input'), {
      request_id: request.request_id,
      value: 'ada',
    });
    expect(replied.status).toBe(204);
    expect(await waitForExecutionEnd(h, sessionId, 2)).toMatchObject({
      success: true,
      return_value: { text: "'ADA'" },
    });

    await h.api('POST', route(sessionId, 'default', 'execute'), {
      code: 'import time\nprint("sleeping", flush=True)\ntime.sleep(60)',
    });
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.stream' && e.text.includes('sleeping'));
    const interrupt = await h.api<{ interrupted: boolean }>('POST', route(sessionId, 'default', 'interrupt'));
    expect(interrupt.body.interrupted).toBe(true);
    const interrupted = await waitForExecutionEnd(h, sessionId, 3);
    expect(interrupted).toMatchObject({ success: false, error: { type: 'KeyboardInterrupt' } });
    // The kernel lives on: its variables are still there.
    await h.api('POST', route(sessionId, 'default', 'execute'), { code: 'x' });
    expect(await waitForExecutionEnd(h, sessionId, 4)).toMatchObject({ return_value: { text: '20' } });
  });

  it('restarts into a fresh kernel on the server and says state was lost', async () => {
    const [before] = await serverKernelIds(jupyter);
    const restarted = await h.api('POST', route(sessionId, 'default', 'restart'));
    expect(restarted.status).toBe(200);
    await h.api('POST', route(sessionId, 'default', 'execute'), { code: 'x' });
    const end = await waitForExecutionEnd(h, sessionId, 5);
    expect(end).toMatchObject({
      success: false,
      error: { type: 'NameError' },
      state_lost: 'the kernel was restarted',
    });
    const after = await serverKernelIds(jupyter);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it('gives the agent the same tools there', async () => {
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: 'y = 6\ny * 7' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'compute');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const result = toolResultJson(h, h.model.requests.length - 1);
    expect(result).toMatchObject({ success: true, return_value: '42' });
  });

  it('removes the kernels from the server when the session is deleted', async () => {
    expect(await serverKernelIds(jupyter)).toHaveLength(1);
    expect((await h.api('DELETE', `/api/sessions/${sessionId}`)).status).toBe(204);
    await waitFor(async () => (await serverKernelIds(jupyter)).length === 0);
  });

  it('goes back to local kernels, and keeps the token nowhere but the keychain', async () => {
    const local = await provider({ provider: 'local', clear_token: true });
    expect(local.body).toMatchObject({
      provider: 'local',
      jupyter: { url: jupyter.baseUrl, has_token: false },
    });
    const { sessionId: next } = await h.newSession();
    await h.api('POST', route(next, 'default', 'execute'), { code: '1 + 1' });
    await waitForExecutionEnd(h, next);
    const started = (await kernelEvents(h, next)).find((e) => e.type === 'kernel.started');
    expect(started).toMatchObject({ server: null });
    expect(typeof (started as { pid: unknown }).pid).toBe('number');

    await h.server.stop(); // flushes the database and logs; the folder stays until h.close()
    for (const file of allFiles(h.dataDir)) {
      expect(fs.readFileSync(file).includes(jupyter.token), `${file} holds the token`).toBe(false);
    }
    await h.restart();
  });
});
