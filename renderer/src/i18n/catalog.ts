import { backendMessages } from './messages/backend';
import { backgroundMessages } from './messages/background';
import { changesMessages } from './messages/changes';
import { codeCardMessages } from './messages/code-card';
import { codeModeMessages } from './messages/code-mode';
import { contextMessages } from './messages/context';
import { conversationMessages } from './messages/conversation';
import { fileCardMessages } from './messages/file-cards';
import { forkMessages } from './messages/forks';
import { kernelMessages } from './messages/kernels';
import { mcpMessages } from './messages/mcp';
import { modelCompactionMessages } from './messages/model-compaction';
import { permissionMessages } from './messages/permissions';
import { sessionMessages } from './messages/sessions';
import { settingsMessages } from './messages/settings';
import { shellMessages } from './messages/shell';
import { toolCardMessages } from './messages/tool-cards';

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Every locale's strings, merged from its areas: key → template. */
export type Catalog = Record<string, string>;

/** One area's strings in another locale: exactly the keys of its English file (`messages/<area>.ts`). */
export type Translation<English> = Record<keyof English, string>;

/**
 * English, the reference every other locale must match, by area. Only English ships with the first screen;
 * other locales are in `catalog-<locale>.ts`, loaded when chosen (i18n.tsx `loadLocale`).
 */
export const EN_AREAS = {
  shellMessages,
  conversationMessages,
  settingsMessages,
  modelCompactionMessages,
  contextMessages,
  backendMessages,
  kernelMessages,
  mcpMessages,
  backgroundMessages,
  permissionMessages,
  forkMessages,
  codeModeMessages,
  sessionMessages,
  changesMessages,
  toolCardMessages,
  fileCardMessages,
  codeCardMessages,
};

/** Every area of a locale, each with exactly the English keys of that area. */
export type LocaleAreas = { [Area in keyof typeof EN_AREAS]: Translation<(typeof EN_AREAS)[Area]> };

export const EN_CATALOG: Catalog = Object.assign({}, ...Object.values(EN_AREAS));
