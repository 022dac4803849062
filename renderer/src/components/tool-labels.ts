import type { ToolCallStatus } from '../../../sidecar/src/protocol';

/** How tool calls are named on screen: a glyph per tool, and the catalog key of each status. */

const GLYPHS: Record<string, string> = {
  Bash: '$',
  Exec: '▷',
  Read: '¶',
  Write: '✎',
  Edit: '✎',
  Grep: '⌕',
  Glob: '✱',
  AskUserQuestion: '?',
  execute_code: '▶',
};
const DEFAULT_GLYPH = '⚙';
const MCP_GLYPH = '◈';

export function toolGlyph(name: string): string {
  return GLYPHS[name] ?? (name.startsWith('mcp__') ? MCP_GLYPH : DEFAULT_GLYPH);
}

export type CardStatus = ToolCallStatus | 'pending';

export const STATUS_KEYS: Record<CardStatus, string> = {
  pending: 'tool.status.pending',
  waiting_approval: 'tool.status.waitingApproval',
  running: 'tool.status.running',
  completed: 'tool.status.completed',
  failed: 'tool.status.failed',
  denied: 'tool.status.denied',
  cancelled: 'tool.status.cancelled',
  interrupted: 'tool.status.interrupted',
};

/** Whether a call has ended (its status will not change again). */
export function isFinished(status: CardStatus): boolean {
  return status !== 'pending' && status !== 'running' && status !== 'waiting_approval';
}
