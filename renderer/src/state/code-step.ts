/**
 * Code mode's steps are execute_code calls whose tool_use_id names the assistant message whose code they
 * ran: the reply has no tool_use block, so this is how a step finds its place (right after the reply).
 */
const PREFIX = 'codestep_';

export function codeStepUseId(messageId: number): string {
  return `${PREFIX}${messageId}`;
}

/** The message a step's tool_use_id names, or null for any other call. */
export function codeStepMessageId(toolUseId: string): number | null {
  if (!toolUseId.startsWith(PREFIX)) return null;
  const id = Number(toolUseId.slice(PREFIX.length));
  return Number.isInteger(id) ? id : null;
}
