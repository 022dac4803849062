import { type ComponentType, lazy } from 'react';
import { withPartBoundary } from '../PartBoundary';
import type { CallBodyProps } from './body-props';
import type { CallKind } from './call-kind';

// Bodies load when a card first opens: the conversation's first screen needs none of them.
const GenericBody = withPartBoundary(
  lazy(() => import('./GenericBody').then((m) => ({ default: m.GenericBody }))),
);
const McpBody = withPartBoundary(lazy(() => import('./McpBody').then((m) => ({ default: m.McpBody }))));
const CodeBody = withPartBoundary(lazy(() => import('./CodeBody').then((m) => ({ default: m.CodeBody }))));
const ShellBody = withPartBoundary(lazy(() => import('./ShellBody').then((m) => ({ default: m.ShellBody }))));
const EditBody = withPartBoundary(lazy(() => import('./EditBody').then((m) => ({ default: m.EditBody }))));
const WriteBody = withPartBoundary(lazy(() => import('./WriteBody').then((m) => ({ default: m.WriteBody }))));
const ReadBody = withPartBoundary(lazy(() => import('./ReadBody').then((m) => ({ default: m.ReadBody }))));
const ListBody = withPartBoundary(lazy(() => import('./ListBody').then((m) => ({ default: m.ListBody }))));

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
