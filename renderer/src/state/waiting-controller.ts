import type { CairnEvent } from '../../../sidecar/src/protocol';
import type { CairnClient } from '../api/http-client';
import { LiveController } from './live-controller';
import { type EventSource, messageOf } from './session-controller';
import { applyWaitingEvent, isWaitingEvent, type WaitingView, waitingFrom, withParent } from './waiting-view';

export interface WaitingSnapshot {
  view: WaitingView | null;
  error: string | null;
}

/**
 * The questions and approvals one session waits on the user for, for the side panel (which lists those
 * outside the running turn: waitingOutside). The pending ones are read once the session's subscription is
 * made, the events that come meanwhile held back and folded in after, then live events on top.
 *
 * The running turn comes from `runningTurn` when the events begin (the session's page, read up to where its
 * subscription starts), then from the turn events.
 */
export class WaitingController extends LiveController<WaitingSnapshot> {
  constructor(
    private readonly client: CairnClient,
    source: EventSource,
    readonly sessionId: string,
    private readonly runningTurn: () => string | null,
  ) {
    super(source, { view: null, error: null });
  }

  /** Call once the source is subscribed: the read then overlaps the live events. */
  async start(): Promise<void> {
    if (this.disposed) return;
    this.listen();
    const running = this.runningTurn();
    try {
      const questions = await this.client.questions(this.sessionId);
      if (this.disposed) return;
      const view = this.takeHeld()
        .filter(isWaitingEvent)
        .reduce(applyWaitingEvent, waitingFrom(questions, running));
      this.update({ view, error: null });
      // Approvals asked before the events began: which call's script asked (for that call's row).
      const unknown = view.pending.filter(
        (q) => q.kind === 'approval' && q.tool_call_id !== null && !(q.tool_call_id in view.parents),
      );
      await Promise.all(unknown.map((q) => this.readParent(q.tool_call_id!)));
    } catch (error) {
      this.held = null;
      if (!this.disposed) this.update({ error: messageOf(error) });
    }
  }

  /** Answers through the same call as the conversation; the card goes with the `question.answered` event. */
  answer = async (questionId: string, answer: string): Promise<void> => {
    await this.client.answer(questionId, answer);
  };

  protected onEvent(event: CairnEvent): void {
    if (!isWaitingEvent(event)) return;
    const current = this.snapshot.view;
    if (!current) return;
    const view = applyWaitingEvent(current, event);
    if (view !== current) this.update({ view });
  }

  private async readParent(callId: string): Promise<void> {
    try {
      const call = await this.client.toolCall(callId);
      const view = this.snapshot.view;
      if (this.disposed || !view || call.parent_tool_call_id === null) return;
      const next = withParent(view, callId, call.parent_tool_call_id);
      if (next !== view) this.update({ view: next });
    } catch {
      // Only a row's note needs it: the approval itself is listed either way.
    }
  }
}
