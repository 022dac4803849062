/** A fork's one turn starts from this prompt: its task, its instruction, and where its reply goes. */
export function forkPrompt(task: string, instruction: string): string {
  return [
    `Fork task: ${task}`,
    instruction,
    'You are a fork of the conversation above, working on this task on your own: your final reply is ' +
      'gathered by the parent agent that spawned you, so make it your complete answer.',
  ].join('\n\n');
}

/** A fork's session title: its task, short. */
export function forkTitle(task: string): string {
  const line = task.trim().split('\n')[0]?.trim() ?? '';
  return `Fork: ${line.length > 50 ? `${line.slice(0, 49)}…` : line}`;
}

/** The request id of a fork's one turn: its turn is found again by it. */
export const forkRequestId = (forkId: string): string => `fork:${forkId}`;
