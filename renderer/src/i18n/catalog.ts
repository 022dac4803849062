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

/** One area's strings, in every locale; English is the reference every other locale must match. */
export type AreaMessages<K extends string = string> = Record<Locale, Record<K, string>>;

const areas = [
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
];

export const CATALOG: Record<Locale, Record<string, string>> = {
  en: Object.assign({}, ...areas.map((a) => a.en)),
  'zh-CN': Object.assign({}, ...areas.map((a) => a['zh-CN'])),
};
