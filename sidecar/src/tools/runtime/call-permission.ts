import type { ApprovalInfo } from '../../protocol';
import type { Store } from '../../store/store';
import { decidePermission } from '../permissions/permission-policy';
import type { Tool } from '../tool';
import type { CallRequest } from './call-request';

/** What happens to a call before it runs: it runs, the user is asked first (and why), or it is refused. */
export type CallPermission =
  | { decision: 'allow' }
  | { decision: 'ask'; info: ApprovalInfo }
  | { decision: 'deny'; content: string };

/**
 * Decides a call by the rules of its scope (global, its project's, its session's) and the session's mode,
 * for the model's calls and its scripts' alike. A tool that runs code inside Cairn (`privileged`) asks even
 * where the rules or the mode would let it run; a deny still refuses it. When the rules cannot be read or
 * checked, the call asks rather than runs.
 */
export async function decideCall(
  store: Store,
  request: Pick<CallRequest, 'sessionId' | 'projectRoot' | 'approvalMode'>,
  tool: Tool,
  input: unknown,
  privileged: string | null,
): Promise<CallPermission> {
  const call = {
    sessionId: request.sessionId,
    projectRoot: request.projectRoot,
    mode: request.approvalMode(),
    tool,
    input,
  };
  let verdict: Awaited<ReturnType<typeof decidePermission>>;
  try {
    const projectId = store.sessions.get(call.sessionId)?.project_id ?? null;
    verdict = await decidePermission({
      tool: call.tool.name,
      input: call.input,
      mode: call.mode,
      sideEffects: call.tool.sideEffects,
      projectRoot: call.projectRoot,
      rules: store.permissionRules.applicable(projectId, call.sessionId),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      decision: 'ask',
      info: {
        reason: `Cairn could not check this call against the permission rules (${why}), so it asks.`,
        rule_id: null,
        suggestion: { tool: call.tool.name, pattern: null },
      },
    };
  }
  const info: ApprovalInfo = {
    reason: verdict.reason,
    rule_id: verdict.rule_id,
    suggestion: verdict.suggestion,
  };
  if (verdict.decision === 'deny')
    return { decision: 'deny', content: deniedContent(verdict.reason, verdict.rule_id) };
  if (privileged !== null) {
    return { decision: 'ask', info: { ...info, reason: privileged, rule_id: null } };
  }
  return verdict.decision === 'ask' ? { decision: 'ask', info } : { decision: 'allow' };
}

/** The result the model gets for a refused call: why, and that retrying it as is will not help. */
function deniedContent(reason: string, ruleId: string | null): string {
  if (ruleId === null) return `Refused: ${reason}`;
  return `Refused by a permission rule (${ruleId}): ${reason} Do not retry it as is; if it is needed, ask the user.`;
}
