import type { Logger } from '../../../log/logger';
import { serveToolWorker } from '../assets/tool-worker-core.mjs';
import { memoryChannelPair } from './memory-channel';
import type { ToolWorker } from './tool-worker';
import { WorkerStoppedError } from './tool-worker';
import { WorkerClient } from './worker-client';

/** How long a local tool's close() may take when it is stopped. */
const CLOSE_TIMEOUT_MS = 2000;

/**
 * A JavaScript tool run inside the sidecar (`mode: "local"`): the same core a worker process runs, over an
 * in-memory channel. It cannot crash apart from Cairn, and a method that never returns cannot be ended:
 * only stopping the sidecar does that (which is why `process` is the default).
 */
export class LocalToolWorker implements ToolWorker {
  readonly client: WorkerClient;
  readonly pid = null;
  private stopping: Promise<void> | null = null;

  constructor(options: { cancelGraceMs: number; logger: Logger }) {
    const { cairn, worker } = memoryChannelPair();
    serveToolWorker(worker);
    this.client = new WorkerClient(cairn, options);
  }

  onEnd(): void {
    // It ends only with the sidecar.
  }

  stop(): Promise<void> {
    this.stopping ??= this.client
      .requestStop(CLOSE_TIMEOUT_MS)
      .then(() => this.client.fail(new WorkerStoppedError()));
    return this.stopping;
  }
}
