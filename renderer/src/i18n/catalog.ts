// The first screen's areas (app shell, sidebar, conversation and its cards' frames, composer, context meter):
// imported here for their side effect, registering their strings (english.ts). i18n.tsx imports this module,
// so they are in the first screen's script.
import './messages/changes';
import './messages/code-mode';
import './messages/context';
import './messages/conversation';
import './messages/forks';
import './messages/sessions';
import './messages/shell';
import './messages/tool-cards';
// Every area's type. The areas not imported above load with the lazy parts that use them: each module that
// names one of their keys imports the area's module itself (renderer/test-node/lazy-strings.test.ts checks it).
import type { backendMessages } from './messages/backend';
import type { backgroundMessages } from './messages/background';
import type { changedFileMessages } from './messages/changed-files';
import type { changesMessages } from './messages/changes';
import type { codeCardMessages } from './messages/code-card';
import type { codeModeMessages } from './messages/code-mode';
import type { contextMessages } from './messages/context';
import type { contextPanelMessages } from './messages/context-panel';
import type { conversationMessages } from './messages/conversation';
import type { dialogMessages } from './messages/dialogs';
import type { fileCardMessages } from './messages/file-cards';
import type { forkMessages } from './messages/forks';
import type { kernelMessages } from './messages/kernels';
import type { mcpMessages } from './messages/mcp';
import type { modelCompactionMessages } from './messages/model-compaction';
import type { permissionMessages } from './messages/permissions';
import type { sessionMessages } from './messages/sessions';
import type { settingsMessages } from './messages/settings';
import type { shellMessages } from './messages/shell';
import type { toolBodyMessages } from './messages/tool-bodies';
import type { toolCardMessages } from './messages/tool-cards';

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Every locale's strings, merged from its areas: key → template. */
export type Catalog = Record<string, string>;

/** One area's strings in another locale: exactly the keys of its English file (`messages/<area>.ts`). */
export type Translation<English> = Record<keyof English, string>;

/**
 * English, the reference every other locale must match, by area (each `messages/<area>.ts`). Other locales
 * are whole, each in `catalog-<locale>.ts`, loaded when chosen (i18n.tsx `loadLocale`).
 */
export interface EnglishAreas {
  shellMessages: typeof shellMessages;
  conversationMessages: typeof conversationMessages;
  settingsMessages: typeof settingsMessages;
  modelCompactionMessages: typeof modelCompactionMessages;
  contextMessages: typeof contextMessages;
  contextPanelMessages: typeof contextPanelMessages;
  backendMessages: typeof backendMessages;
  kernelMessages: typeof kernelMessages;
  mcpMessages: typeof mcpMessages;
  backgroundMessages: typeof backgroundMessages;
  permissionMessages: typeof permissionMessages;
  forkMessages: typeof forkMessages;
  codeModeMessages: typeof codeModeMessages;
  sessionMessages: typeof sessionMessages;
  dialogMessages: typeof dialogMessages;
  changesMessages: typeof changesMessages;
  changedFileMessages: typeof changedFileMessages;
  toolCardMessages: typeof toolCardMessages;
  toolBodyMessages: typeof toolBodyMessages;
  fileCardMessages: typeof fileCardMessages;
  codeCardMessages: typeof codeCardMessages;
}

/** Every area of a locale, each with exactly the English keys of that area. */
export type LocaleAreas = { [Area in keyof EnglishAreas]: Translation<EnglishAreas[Area]> };
