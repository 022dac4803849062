import type { Catalog, LocaleAreas } from './catalog';
import { backendMessages } from './messages/zh-CN/backend';
import { backgroundMessages } from './messages/zh-CN/background';
import { changedFileMessages } from './messages/zh-CN/changed-files';
import { changesMessages } from './messages/zh-CN/changes';
import { codeCardMessages } from './messages/zh-CN/code-card';
import { codeModeMessages } from './messages/zh-CN/code-mode';
import { contextMessages } from './messages/zh-CN/context';
import { contextPanelMessages } from './messages/zh-CN/context-panel';
import { conversationMessages } from './messages/zh-CN/conversation';
import { dialogMessages } from './messages/zh-CN/dialogs';
import { fileCardMessages } from './messages/zh-CN/file-cards';
import { forkMessages } from './messages/zh-CN/forks';
import { kernelMessages } from './messages/zh-CN/kernels';
import { mcpMessages } from './messages/zh-CN/mcp';
import { modelCompactionMessages } from './messages/zh-CN/model-compaction';
import { permissionMessages } from './messages/zh-CN/permissions';
import { sessionMessages } from './messages/zh-CN/sessions';
import { settingsMessages } from './messages/zh-CN/settings';
import { shellMessages } from './messages/zh-CN/shell';
import { toolBodyMessages } from './messages/zh-CN/tool-bodies';
import { toolCardMessages } from './messages/zh-CN/tool-cards';

// Imported only dynamically (i18n.tsx `loadLocale`), so these strings are a chunk of their own that English
// users never fetch. Typed as LocaleAreas, so a missing area or key fails the type check.
export const ZH_CN_AREAS: LocaleAreas = {
  shellMessages,
  conversationMessages,
  settingsMessages,
  modelCompactionMessages,
  contextMessages,
  contextPanelMessages,
  backendMessages,
  kernelMessages,
  mcpMessages,
  backgroundMessages,
  permissionMessages,
  forkMessages,
  codeModeMessages,
  sessionMessages,
  dialogMessages,
  changesMessages,
  changedFileMessages,
  toolCardMessages,
  toolBodyMessages,
  fileCardMessages,
  codeCardMessages,
};

export const ZH_CN_CATALOG: Catalog = Object.assign({}, ...Object.values(ZH_CN_AREAS));
