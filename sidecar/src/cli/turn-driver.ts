import type { AnswerQuestionRequest, CairnEvent, TurnStatus } from '../protocol';

/** One turn driven from the command line, in-process or through a running server. */
export interface TurnDriver {
  /** Starts the turn; events of this turn reach onEvent in order. */
  start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }>;
  /** Resolves with the turn's final status once its terminal event was delivered. */
  finished(): Promise<TurnStatus>;
  /** Answers a question; an approval's answer may save a rule (`remember`). */
  answer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
  /** Answers a cell's `input()` request in one of this session's kernels. */
  replyInput(kernel: string, requestId: string, value: string): Promise<void>;
  cancel(): Promise<void>;
  close(): Promise<void>;
}

export const TERMINAL_STATUS: Partial<Record<CairnEvent['type'], TurnStatus>> = {
  'turn.completed': 'completed',
  'turn.failed': 'failed',
  'turn.cancelled': 'cancelled',
  'turn.interrupted': 'interrupted',
};
