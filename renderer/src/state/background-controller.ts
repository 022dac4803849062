import type { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, ToolCall } from '../../../sidecar/src/protocol';
import {
  applyOutput,
  applyRuntimeEvent,
  type BackgroundView,
  backgroundFromInfo,
  isActive,
  isRuntimeEvent,
  replaceCall,
} from './background-view';
import { ViewController, type ViewSnapshot } from './live-controller';
import { type EventSource, messageOf } from './session-controller';

export type BackgroundSnapshot = ViewSnapshot<BackgroundView>;

/**
 * A piece holds the output of a short window (200 ms on the sidecar): reading a call's pieces this long after
 * the session's page was read finds in them all the output from before the live events begin.
 */
const PIECES_SETTLE_MS = 300;

/**
 * The side panel's background tasks for one session, kept from the moment the session opens (so the panel
 * shows whole tails whenever it opens): the list read once the session's subscription is made, live tool
 * events on top, and each running call's newest output read from its pieces.
 */
export class BackgroundController extends ViewController<BackgroundView> {
  constructor(
    private readonly client: CairnClient,
    source: EventSource,
    readonly sessionId: string,
    private readonly settleMs = PIECES_SETTLE_MS,
  ) {
    super(source);
  }

  /** Call once the source is subscribed: the list read here then overlaps the live events. */
  async start(): Promise<void> {
    const view = await this.begin(async () =>
      backgroundFromInfo(await this.client.toolRuntime(this.sessionId)),
    );
    const running = view?.calls.filter((c) => c.tail === null && isActive(c.call)) ?? [];
    if (running.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, this.settleMs));
    await Promise.all(running.map((c) => this.readTail(c.call.id)));
  }

  /** Reads a call's newest output (an ended call's when its output is opened). */
  readTail = async (callId: string): Promise<void> => {
    try {
      const output = await this.client.toolCallOutput(callId);
      const view = this.snapshot.view;
      if (!this.disposed && view) this.update({ view: applyOutput(view, output) });
    } catch (error) {
      if (!this.disposed) this.update({ error: messageOf(error) });
    }
  };

  /** Cancels a call; resolves with it once it has stopped, rejects with the API's error. */
  cancel = async (callId: string): Promise<ToolCall> => {
    const call = await this.client.cancelToolCall(callId);
    const view = this.snapshot.view;
    if (!this.disposed && view) this.update({ view: replaceCall(view, call) });
    return call;
  };

  protected accepts(event: CairnEvent): boolean {
    return isRuntimeEvent(event);
  }

  protected apply(view: BackgroundView, event: CairnEvent): BackgroundView {
    return applyRuntimeEvent(view, event);
  }
}
