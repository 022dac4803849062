import type { CairnClient } from '../../../sidecar/src/client';
import type { AnswerQuestionRequest, CairnEvent } from '../../../sidecar/src/protocol';
import { ViewController, type ViewSnapshot } from './live-controller';
import type { EventSource } from './session-controller';
import { applyWaitingEvent, isWaitingEvent, type WaitingView, waitingFrom, withParent } from './waiting-view';

export type WaitingSnapshot = ViewSnapshot<WaitingView>;

/**
 * The questions and approvals one session waits on the user for, for the side panel (which lists those
 * outside the running turn: waitingOutside). The pending ones are read once the session's subscription is
 * made, the events that come meanwhile held back and folded in after, then live events on top.
 *
 * The running turn comes from `runningTurn` when the events begin (the session's page, read up to where its
 * subscription starts), then from the turn events.
 */
export class WaitingController extends ViewController<WaitingView> {
  constructor(
    private readonly client: CairnClient,
    source: EventSource,
    readonly sessionId: string,
    private readonly runningTurn: () => string | null,
  ) {
    super(source);
  }

  /** Call once the source is subscribed: the read then overlaps the live events. */
  async start(): Promise<void> {
    const view = await this.begin(async () => {
      // Taken as the events begin: the session's page and its subscription meet here.
      const running = this.runningTurn();
      return waitingFrom(await this.client.questions(this.sessionId), running);
    });
    if (!view) return;
    // Approvals asked before the events began: which call's script asked (for that call's row).
    const unknown = view.pending.filter(
      (q) => q.kind === 'approval' && q.tool_call_id !== null && !(q.tool_call_id in view.parents),
    );
    await Promise.all(unknown.map((q) => this.readParent(q.tool_call_id!)));
  }

  /** Answers through the same call as the conversation; the card goes with the `question.answered` event. */
  answer = async (questionId: string, answer: AnswerQuestionRequest): Promise<void> => {
    await this.client.answer(questionId, answer);
  };

  protected accepts(event: CairnEvent): boolean {
    return isWaitingEvent(event);
  }

  protected apply(view: WaitingView, event: CairnEvent): WaitingView {
    return applyWaitingEvent(view, event);
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
