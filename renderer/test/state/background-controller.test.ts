import { describe, expect, it } from 'vitest';
import type { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, NewEvent, ToolCallOutput, ToolRuntimeInfo } from '../../../sidecar/src/protocol';
import { BackgroundController } from '../../src/state/background-controller';
import { eventMaker } from '../support/journal-events';
import { storedToolCall } from '../support/tool-calls';

// The controller reads the list once the session is subscribed, holds the live events that come meanwhile,
// and reads running calls' pieces a moment later, joining them with the output that streamed in between.

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('BackgroundController', () => {
  it('joins the list, the events held while it was read, and the pieces read after', async () => {
    const list = deferred<ToolRuntimeInfo>();
    const pieces = deferred<ToolCallOutput>();
    const asked: string[] = [];
    const client = {
      toolRuntime: () => list.promise,
      toolCallOutput: (id: string, after?: number) => {
        asked.push(`${id} ${after}`);
        return pieces.promise;
      },
    } as unknown as CairnClient;
    const listeners = new Set<(e: CairnEvent) => void>();
    const make = eventMaker('s');
    const emit = (e: NewEvent) => {
      const event = make(e);
      for (const l of listeners) l(event);
    };
    const source = {
      listen: (l: (e: CairnEvent) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const out = (text: string): NewEvent => ({
      type: 'tool.output',
      turn_id: 't1',
      tool_call_id: 'tc1',
      stream: 'stdout',
      text,
    });

    const controller = new BackgroundController(client, source, 's', 5);
    const started = controller.start();
    emit(out('two\n'));
    list.resolve({ calls: [storedToolCall({ id: 'tc1', background: true })], loaded_tools: [] });
    await new Promise((r) => setTimeout(r, 0));
    expect(controller.getSnapshot().view?.calls[0]).toMatchObject({ tail: null, pending: ['two\n'] });
    emit(out('three\n'));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual(['tc1 undefined']);
    // The pieces hold "two" already, not "three" yet.
    pieces.resolve({
      call_id: 'tc1',
      status: 'running',
      pieces: [{ number: 0, text: 'one\ntwo\n' }],
      next_after: 0,
      missing: 0,
      running: true,
    });
    await started;
    expect(controller.getSnapshot().view?.calls[0]?.tail).toBe('one\ntwo\nthree\n');
    emit(out('four\n'));
    expect(controller.getSnapshot().view?.calls[0]?.tail).toBe('one\ntwo\nthree\nfour\n');
    controller.dispose();
    emit(out('five\n'));
    expect(controller.getSnapshot().view?.calls[0]?.tail).toBe('one\ntwo\nthree\nfour\n');
  });
});
