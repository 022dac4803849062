import type { CairnEvent, Question } from '../../../sidecar/src/protocol';

/**
 * What a session waits on the user for: its pending questions and approvals, and the turn that runs now.
 * The running turn's own questions are the conversation's (inline, beside what asked); the others (a
 * background call's script asks after its turn ended, in a turn that may not even be loaded) wait in the
 * side panel.
 */
export interface WaitingView {
  /** Every pending question of the session, in the order they were asked. */
  pending: Question[];
  /** The turn running now; null between turns. */
  runningTurnId: string | null;
  /** For calls that wait for approval and were started by a script: the call whose script started them. */
  parents: Record<string, string>;
}

const TURN_ENDS = new Set<CairnEvent['type']>([
  'turn.completed',
  'turn.failed',
  'turn.cancelled',
  'turn.interrupted',
]);

const WAITING_EVENTS = new Set<CairnEvent['type']>([
  'question.required',
  'question.answered',
  'question.closed',
  'turn.started',
  'tool.started',
  ...TURN_ENDS,
]);

export function isWaitingEvent(event: CairnEvent): boolean {
  return WAITING_EVENTS.has(event.type);
}

/** The pending questions as read (GET …/questions), with the turn that ran when the read's events began. */
export function waitingFrom(questions: readonly Question[], runningTurnId: string | null): WaitingView {
  return { pending: questions.filter((q) => q.status === 'pending'), runningTurnId, parents: {} };
}

/** Applies one live event: questions come and go, turns start and end, script calls wait for approval. */
export function applyWaitingEvent(view: WaitingView, event: CairnEvent): WaitingView {
  switch (event.type) {
    case 'question.required': {
      const question = event.question;
      if (question.status !== 'pending' || view.pending.some((q) => q.id === question.id)) return view;
      return { ...view, pending: [...view.pending, question] };
    }
    case 'question.answered':
    case 'question.closed':
      return withoutQuestion(view, event.question_id);
    case 'turn.started':
      return event.turn_id === view.runningTurnId ? view : { ...view, runningTurnId: event.turn_id };
    case 'tool.started':
      // Announced just before its approval is asked: which call's script started it.
      if (event.status !== 'waiting_approval' || event.parent_tool_call_id === null) return view;
      return { ...view, parents: { ...view.parents, [event.tool_call_id]: event.parent_tool_call_id } };
    default:
      if (TURN_ENDS.has(event.type) && event.turn_id !== null && event.turn_id === view.runningTurnId)
        return { ...view, runningTurnId: null };
      return view;
  }
}

/** A call's parent as read (a call that waited before the events began); kept while its approval waits. */
export function withParent(view: WaitingView, callId: string, parentId: string): WaitingView {
  if (view.parents[callId] === parentId || !view.pending.some((q) => q.tool_call_id === callId)) return view;
  return { ...view, parents: { ...view.parents, [callId]: parentId } };
}

/**
 * What the side panel lists: the pending questions outside the running turn, every pending one between
 * turns. The running turn's own stay inline in the conversation only.
 */
export function waitingOutside(view: WaitingView | null): Question[] {
  if (!view) return [];
  return view.pending.filter((q) => q.turn_id !== view.runningTurnId);
}

/** The calls one of whose script's calls waits for an approval listed outside the running turn. */
export function callsAwaitingApproval(view: WaitingView | null): Set<string> {
  const calls = new Set<string>();
  for (const question of waitingOutside(view)) {
    const parent = question.tool_call_id === null ? undefined : view!.parents[question.tool_call_id];
    if (question.kind === 'approval' && parent !== undefined) calls.add(parent);
  }
  return calls;
}

function withoutQuestion(view: WaitingView, id: string): WaitingView {
  const question = view.pending.find((q) => q.id === id);
  if (!question) return view;
  const pending = view.pending.filter((q) => q.id !== id);
  if (question.tool_call_id === null || !(question.tool_call_id in view.parents)) return { ...view, pending };
  const { [question.tool_call_id]: _, ...parents } = view.parents;
  return { ...view, pending, parents };
}
