import type { PermissionDecision, RuleSuggestion } from '../../protocol';
import type { PermissionQuery } from './permission-policy';

/** Tools whose calls `auto_edits` runs: file edits (the tools themselves keep them inside the project). */
const FILE_EDIT_TOOLS = new Set(['Write', 'Edit']);

export const READ_ONLY_REASON =
  "This session is read-only: tools with side effects are refused. Switch the session's mode to ask, " +
  'auto_edits or auto (the mode menu, or PATCH /api/sessions/{id} {"approval": "ask"}) to let it run.';

/**
 * The verdict when no rule decided: calls without side effects run in every mode; the rest as the
 * session's mode says. `subject` names what no rule allowed (a command), for the reason.
 */
export function modeDecision(
  query: PermissionQuery,
  suggestion: RuleSuggestion,
  subject: string | null,
): PermissionDecision {
  const decide = (decision: PermissionDecision['decision'], reason: string): PermissionDecision => ({
    decision,
    rule_id: null,
    reason,
    suggestion,
  });
  if (!query.sideEffects)
    return decide('allow', `${query.tool} has no side effects, so it runs in every mode.`);
  const noRule = subject === null ? `No rule decides on ${query.tool}` : `No rule allows \`${subject}\``;
  switch (query.mode) {
    case 'read_only':
      return decide('deny', READ_ONLY_REASON);
    case 'ask':
      return decide('ask', `${noRule}; the session's mode (ask) asks.`);
    case 'auto_edits':
      return FILE_EDIT_TOOLS.has(query.tool)
        ? decide('allow', "The session's mode (auto_edits) runs file edits without asking.")
        : decide('ask', `${noRule}; the session's mode (auto_edits) runs only file edits without asking.`);
    case 'auto':
      return decide('allow', "The session's mode (auto) runs every call without asking.");
  }
}
