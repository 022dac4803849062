import type { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent } from '../../../sidecar/src/protocol';
import {
  applyKernelEvent,
  EMPTY_KERNELS,
  isKernelEvent,
  type KernelsState,
  withKernelInfo,
  withVariables,
} from './kernel-view';
import { LiveController } from './live-controller';
import type { EventSource } from './session-controller';

export interface KernelSnapshot {
  state: KernelsState;
  loading: boolean;
  error: string | null;
}

const PAGE = 10_000;

/**
 * The kernel panel's state for one session: the journal's `kernel.*` events folded by one reducer,
 * from history on open and live afterwards, plus each kernel's variables (refreshed after each result).
 */
export class KernelController extends LiveController<KernelSnapshot> {
  constructor(
    private readonly client: CairnClient,
    source: EventSource,
    readonly sessionId: string,
  ) {
    super(source, { state: EMPTY_KERNELS, loading: true, error: null });
  }

  /** Call once the source is subscribed: the history read here then overlaps the live events. */
  async start(): Promise<void> {
    if (this.disposed) return;
    this.listen();
    try {
      let state = EMPTY_KERNELS;
      for (;;) {
        const page = await this.client.sessionEvents(this.sessionId, state.lastSeq, PAGE, 'kernel.');
        for (const event of page.events) state = applyKernelEvent(state, event);
        if (!page.has_more || page.events.length === 0) break;
        state = { ...state, lastSeq: page.events.at(-1)!.seq };
      }
      state = withKernelInfo(state, await this.client.listKernels(this.sessionId));
      if (this.disposed) return;
      for (const event of this.takeHeld()) state = applyKernelEvent(state, event);
      this.update({ state, loading: false });
      for (const kernel of state.kernels) {
        if (kernel.state === 'idle') void this.refreshVariables(kernel.name);
      }
    } catch (error) {
      this.held = null;
      this.update({ loading: false, error: messageOf(error) });
    }
  }

  execute = async (kernel: string, code: string): Promise<void> => {
    await this.client.executeCell(this.sessionId, kernel, code);
  };

  reply = async (kernel: string, requestId: string, value: string): Promise<void> => {
    await this.client.replyInput(this.sessionId, kernel, requestId, value);
  };

  interrupt = async (kernel: string): Promise<boolean> => this.client.interruptKernel(this.sessionId, kernel);

  restart = async (kernel: string): Promise<void> => {
    const info = await this.client.restartKernel(this.sessionId, kernel);
    this.update({ state: withKernelInfo(this.snapshot.state, [info]) });
    await this.refreshVariables(kernel);
  };

  notebook = (kernel: string): Promise<Blob> => this.client.notebookBlob(this.sessionId, kernel);

  refreshVariables = async (kernel: string): Promise<void> => {
    try {
      const variables = await this.client.kernelVariables(this.sessionId, kernel);
      if (!this.disposed) this.update({ state: withVariables(this.snapshot.state, kernel, variables) });
    } catch {
      // A kernel that is gone or busy keeps the list it had; the next result refreshes it.
    }
  };

  protected onEvent(event: CairnEvent): void {
    if (!isKernelEvent(event)) return;
    const state = applyKernelEvent(this.snapshot.state, event);
    if (state === this.snapshot.state) return;
    this.update({ state });
    if (event.type === 'kernel.result') void this.refreshVariables(event.kernel);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
