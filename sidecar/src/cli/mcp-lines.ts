import type { CairnEvent } from '../protocol';
import { revealHidden } from './reveal-hidden';

type Of<T extends CairnEvent['type']> = Extract<CairnEvent, { type: T }>;

/** What a server sends is shown on one line, this long at most, hidden characters shown not obeyed. */
const LINE_CHARS = 300;

const oneLine = (text: string): string => {
  const flat = revealHidden(text.replace(/\s+/g, ' ').trim()).text;
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS)}…` : flat;
};

/** A reason may carry a server's or an authorization server's words: hidden characters shown, lines kept. */
const shown = (error: string | null): string => revealHidden(error ?? 'no reason given').text;

/** An MCP server starting, ready, failed, or waiting for the user to log in. */
export function mcpServerLine(event: Of<'mcp.server'>): string {
  const name = `MCP server "${event.name}"`;
  switch (event.state) {
    case 'connecting':
      return `… ${name} is starting`;
    case 'connected':
      return `  ${name} is ready (${event.tools} tool${event.tools === 1 ? '' : 's'})`;
    case 'stopped':
      return `  ${name} stopped`;
    case 'auth_required':
      // The URL comes from the server's authorization server: hidden characters shown, not obeyed.
      return event.authorization_url
        ? `… ${name} waits for you to log in: open ${revealHidden(event.authorization_url).text}`
        : `✗ ${name} needs a login: ${shown(event.error)}`;
    default:
      return `✗ ${name} ${event.state}: ${shown(event.error)}`;
  }
}

/** A running MCP call's progress: "3 of 10" or "42 so far", and the server's message. */
export function progressLine(event: Of<'tool.progress'>): string {
  const count = event.total !== null ? `${event.progress} of ${event.total}` : `${event.progress} so far`;
  return `  … ${count}${event.message ? `: ${oneLine(event.message)}` : ''}`;
}
