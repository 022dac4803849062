import type { CairnEvent, ContextVersionInfo } from '../../../sidecar/src/protocol';

/** The agent edited its own context (its working history or its system prompt addition): one new version. */
export interface ContextEditItem {
  kind: 'context-edit';
  key: string;
  version: number;
}

/** The reason a context version written by the agent's own edit carries. */
export const AGENT_EDIT = 'agent_edit';

export function contextEditItem(version: number): ContextEditItem {
  return { kind: 'context-edit', key: `context-edit-v${version}`, version };
}

/** A turn's items after `context.edited`: a note at the end, once per version (a replayed event adds none). */
export function applyContextEdit<T extends { key: string }>(
  items: readonly (T | ContextEditItem)[],
  event: Extract<CairnEvent, { type: 'context.edited' }>,
): (T | ContextEditItem)[] {
  const item = contextEditItem(event.version);
  return items.some((i) => i.key === item.key) ? items.slice() : [...items, item];
}

export const isAgentEdit = (version: ContextVersionInfo): boolean => version.reason === AGENT_EDIT;
