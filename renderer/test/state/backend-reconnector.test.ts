import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackendInfo } from '../../../sidecar/src/protocol';
import { BackendReconnector } from '../../src/state/backend-reconnector';
import { fakeBridge, LOCAL_INFO } from '../support/fake-bridge';

const RESTARTED: BackendInfo = { ...LOCAL_INFO, url: 'http://127.0.0.1:41002', token: 'local-token-B' };

function setup(options: { retryDelayMs?: number } = {}) {
  const fake = fakeBridge(LOCAL_INFO);
  const onChanged = vi.fn((_next: BackendInfo) => undefined);
  const onLost = vi.fn((_message: string) => undefined);
  const asking: boolean[] = [];
  const reconnector = new BackendReconnector({
    bridge: fake.bridge,
    current: { url: LOCAL_INFO.url, token: LOCAL_INFO.token },
    onChanged,
    onLost,
    onAsking: (value) => asking.push(value),
    retryDelayMs: options.retryDelayMs ?? 100,
    maxRetryDelayMs: 400,
  });
  return { ...fake, reconnector, onChanged, onLost, asking };
}

/** Lets pending promise callbacks run (fake timers do not touch microtasks). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('BackendReconnector', () => {
  it('does nothing while the stream connects or is open', async () => {
    const t = setup();
    t.reconnector.streamStateChanged('connecting');
    t.reconnector.streamStateChanged('open');
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.bridge.getBackend).not.toHaveBeenCalled();
  });

  it('asks the host when the stream drops and reports the restarted sidecar', async () => {
    const t = setup();
    t.answer(RESTARTED);
    t.reconnector.streamStateChanged('down');
    await settle();
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    expect(t.onChanged).toHaveBeenCalledExactlyOnceWith(RESTARTED);
    expect(t.onLost).not.toHaveBeenCalled();
  });

  it('asks the host when the token is refused (4401) and reports the new token', async () => {
    const t = setup();
    const newToken = { ...LOCAL_INFO, token: 'local-token-C' };
    t.answer(newToken);
    t.reconnector.streamStateChanged('rejected');
    await settle();
    expect(t.onChanged).toHaveBeenCalledExactlyOnceWith(newToken);
  });

  it('waits for a host that is still restarting the sidecar, saying it is reconnecting meanwhile', async () => {
    const t = setup();
    let restarted: (info: BackendInfo) => void = () => undefined;
    t.answer(new Promise<BackendInfo>((resolve) => (restarted = resolve)));
    t.reconnector.streamStateChanged('down');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.asking).toEqual([true]);
    // Further drops while the host is busy do not pile up requests.
    t.reconnector.streamStateChanged('connecting');
    t.reconnector.streamStateChanged('down');
    t.reconnector.askNow();
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    restarted(RESTARTED);
    await settle();
    expect(t.onChanged).toHaveBeenCalledExactlyOnceWith(RESTARTED);
  });

  it('asks again with backoff while the host still reports the dead backend', async () => {
    const t = setup({ retryDelayMs: 100 });
    // The host has not noticed the crash yet: twice the old backend, then the restarted one.
    t.answer(LOCAL_INFO, LOCAL_INFO, RESTARTED);
    t.reconnector.streamStateChanged('down');
    await settle();
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    expect(t.onChanged).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(99);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(2);
    // The second wait is longer (backoff).
    await vi.advanceTimersByTimeAsync(150);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(3);
    expect(t.onChanged).toHaveBeenCalledExactlyOnceWith(RESTARTED);
  });

  it('stops asking when the stream comes back on its own (a network blip)', async () => {
    const t = setup();
    t.reconnector.streamStateChanged('down');
    await settle();
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    t.reconnector.streamStateChanged('open');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    expect(t.asking).toEqual([true, false]);
    expect(t.onChanged).not.toHaveBeenCalled();
  });

  it('leaves a refused token with the same backend to the "token rejected" banner', async () => {
    const t = setup();
    t.reconnector.streamStateChanged('rejected');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    expect(t.asking).toEqual([true, false]);
    expect(t.onChanged).not.toHaveBeenCalled();
    expect(t.onLost).not.toHaveBeenCalled();
  });

  it('reports the host giving up with its message, and asks no more', async () => {
    const t = setup();
    t.answer(new Error('The Cairn server stopped 5 times in a row; see the diagnostics file.'));
    t.reconnector.streamStateChanged('down');
    await settle();
    expect(t.onLost).toHaveBeenCalledExactlyOnceWith(
      'The Cairn server stopped 5 times in a row; see the diagnostics file.',
    );
    t.reconnector.streamStateChanged('down');
    t.reconnector.askNow();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
    expect(t.onChanged).not.toHaveBeenCalled();
  });

  it('ignores an answer that arrives after it was disposed', async () => {
    const t = setup();
    let answer: (info: BackendInfo) => void = () => undefined;
    t.answer(new Promise<BackendInfo>((resolve) => (answer = resolve)));
    t.reconnector.streamStateChanged('down');
    t.reconnector.dispose();
    answer(RESTARTED);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.onChanged).not.toHaveBeenCalled();
    expect(t.bridge.getBackend).toHaveBeenCalledTimes(1);
  });
});
