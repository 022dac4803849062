import { type ComponentType, lazy } from 'react';
import type { CallBodyProps } from './body-props';
import type { CallKind } from './call-kind';

// Bodies load when a card first opens: the conversation's first screen needs none of them.
const GenericBody = lazy(() => import('./GenericBody').then((m) => ({ default: m.GenericBody })));
const McpBody = lazy(() => import('./McpBody').then((m) => ({ default: m.McpBody })));
const CodeBody = lazy(() => import('./CodeBody').then((m) => ({ default: m.CodeBody })));
const ShellBody = lazy(() => import('./ShellBody').then((m) => ({ default: m.ShellBody })));
const EditBody = lazy(() => import('./EditBody').then((m) => ({ default: m.EditBody })));
const WriteBody = lazy(() => import('./WriteBody').then((m) => ({ default: m.WriteBody })));
const ReadBody = lazy(() => import('./ReadBody').then((m) => ({ default: m.ReadBody })));
const ListBody = lazy(() => import('./ListBody').then((m) => ({ default: m.ListBody })));

/** The body each kind of call shows when its card is open. */
export const CARD_BODIES: Record<CallKind, ComponentType<CallBodyProps>> = {
  shell: ShellBody,
  code: CodeBody,
  edit: EditBody,
  write: WriteBody,
  read: ReadBody,
  list: ListBody,
  mcp: McpBody,
  question: GenericBody,
  generic: GenericBody,
};
