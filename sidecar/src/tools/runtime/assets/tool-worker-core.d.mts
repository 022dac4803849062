/** The messages a worker core exchanges, as plain JSON values (typed in loaded/worker-protocol.ts). */
export interface CoreChannel {
  send(message: unknown): void;
  onMessage(handler: (message: unknown) => void): void;
}

/** Serves one loaded JavaScript tool over `channel` (see tool-worker-core.mjs). */
export function serveToolWorker(channel: CoreChannel): void;
