import { DEFAULT_SESSION_TITLE } from '../../store/sessions-repo';

export { DEFAULT_SESSION_TITLE };

/** A session title from a prompt: its first line, shortened. */
export function titleFromPrompt(prompt: string): string {
  const line = prompt.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || DEFAULT_SESSION_TITLE;
}
