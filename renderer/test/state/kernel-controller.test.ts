import { describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent } from '../../../sidecar/src/protocol';
import { KernelController } from '../../src/state/kernel-controller';
import { eventMaker } from '../support/journal-events';

const ev = eventMaker('s1');

describe('the kernel controller', () => {
  it('folds history and the live events that overlapped it once each, in journal order', async () => {
    const started = ev({
      type: 'kernel.execution_started',
      turn_id: null,
      kernel: 'default',
      execution_id: 'e1',
      code: 'print(1); print(2)',
      tool_call_id: null,
    });
    const one = ev({
      type: 'kernel.stream',
      turn_id: null,
      kernel: 'default',
      execution_id: 'e1',
      stream: 'stdout',
      text: '1\n',
    });
    const two = ev({
      type: 'kernel.stream',
      turn_id: null,
      kernel: 'default',
      execution_id: 'e1',
      stream: 'stdout',
      text: '2\n',
    });
    let releaseHistory: () => void = () => undefined;
    const historyAsked = new Promise<void>((resolve) => {
      releaseHistory = resolve;
    });
    let answerHistory: (() => void) | null = null;
    const fakeFetch: typeof fetch = async (input) => {
      const path = new URL(String(input)).pathname;
      if (path.endsWith('/events')) {
        // The history holds events up to `one`; the answer waits until the live events have come in.
        await new Promise<void>((resolve) => {
          answerHistory = resolve;
          releaseHistory();
        });
        return new Response(JSON.stringify({ events: [started, one], has_more: false }));
      }
      if (path.endsWith('/kernels')) return new Response(JSON.stringify({ kernels: [] }));
      return new Response(JSON.stringify({ variables: [] }));
    };
    const listeners = new Set<(e: CairnEvent) => void>();
    const source = {
      listen(l: (e: CairnEvent) => void) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const controller = new KernelController(
      new CairnClient({ url: 'http://x', token: 't' }, fakeFetch),
      source,
      's1',
    );
    const starting = controller.start();
    await historyAsked;
    // Live: `one` again (it is in the history too), then `two`, both before the history has arrived.
    for (const l of listeners) l(one);
    for (const l of listeners) l(two);
    expect(controller.getSnapshot().loading).toBe(true);
    answerHistory!();
    await starting;
    const cell = controller.getSnapshot().state.kernels[0]!.cells[0]!;
    expect(cell.outputs).toEqual([{ kind: 'stream', stream: 'stdout', text: '1\n2\n' }]);
    controller.dispose();
    expect(listeners.size).toBe(0);
  });
});
