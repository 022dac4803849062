import type { ToolContext } from '../tool';
import type { UserQuestion, UserQuestions } from './call-request';
import type { PausableTimeout } from './pausable-timeout';

/**
 * The `elicit` a call's ToolContext gets: an MCP server's form becomes a question of the call, ended by the
 * call's signal or the form's own. The runner's timeout stops while the user fills it, as the MCP call's
 * own clock does.
 */
export function callElicit(
  questions: UserQuestions,
  call: Pick<UserQuestion, 'sessionId' | 'turnId' | 'toolCallId'>,
  signal: AbortSignal,
  options: { detached: boolean; timeout: PausableTimeout | null },
): NonNullable<ToolContext['elicit']> {
  return async (message, elicitation, waitSignal) => {
    if (!questions.elicit) return { action: 'cancel', content: null };
    options.timeout?.pause();
    try {
      return await questions.elicit(
        { ...call, kind: 'elicitation', question: message, options: null, tool: null, elicitation },
        AbortSignal.any([signal, waitSignal]),
        { detached: options.detached },
      );
    } finally {
      options.timeout?.resume();
    }
  };
}
