import type { EventStream } from '../../../sidecar/src/client';
import type { CairnEvent } from '../../../sidecar/src/protocol';

/** An event stream for one SessionController: what the test delivers is what its subscription hears. */
export function scriptedStream(): { stream: EventStream; deliver(event: CairnEvent): void } {
  let listener: (event: CairnEvent) => void = () => undefined;
  const stream = {
    subscribe: (_id: string, _after: number, onEvent: (e: CairnEvent) => void) => {
      listener = onEvent;
      return () => undefined;
    },
  } as unknown as EventStream;
  return { stream, deliver: (event) => listener(event) };
}
