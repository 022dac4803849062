import { type ComponentType, lazy } from 'react';
import type { CallBodyProps } from './body-props';
import type { CallKind } from './call-kind';

// Bodies load when a card first opens: the conversation's first screen needs none of them.
const GenericBody = lazy(() => import('./GenericBody').then((m) => ({ default: m.GenericBody })));
const CodeBody = lazy(() => import('./CodeBody').then((m) => ({ default: m.CodeBody })));
const ShellBody = lazy(() => import('./ShellBody').then((m) => ({ default: m.ShellBody })));

/** The body each kind of call shows when its card is open. */
export const CARD_BODIES: Record<CallKind, ComponentType<CallBodyProps>> = {
  shell: ShellBody,
  code: CodeBody,
  edit: GenericBody,
  write: GenericBody,
  read: GenericBody,
  list: GenericBody,
  mcp: GenericBody,
  question: GenericBody,
  generic: GenericBody,
};
