import type { CoreChannel } from '../assets/tool-worker-core.mjs';
import { FromWorker, type ToWorker, type WorkerChannel } from './worker-protocol';

/**
 * A linked pair for a worker core running in the sidecar (`mode: "local"`): Cairn's side and the core's.
 * Each message is copied through JSON and delivered on a later tick, as a pipe would carry it, so a tool
 * behaves the same in the sidecar and in a process.
 */
export function memoryChannelPair(): { cairn: WorkerChannel; worker: CoreChannel } {
  const toCairn: ((message: FromWorker) => void)[] = [];
  const toWorker: ((message: unknown) => void)[] = [];
  const deliver = <T>(handlers: ((message: T) => void)[], message: T) => {
    queueMicrotask(() => {
      for (const handler of handlers) handler(message);
    });
  };
  return {
    cairn: {
      send: (message: ToWorker) => deliver(toWorker, JSON.parse(JSON.stringify(message)) as unknown),
      onMessage: (handler) => toCairn.push(handler),
      // The core lives as long as the sidecar: this side never closes.
      onClose: () => {},
    },
    worker: {
      send: (message) => deliver(toCairn, FromWorker.parse(JSON.parse(JSON.stringify(message)))),
      onMessage: (handler) => toWorker.push(handler),
    },
  };
}
