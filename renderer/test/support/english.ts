import type { Catalog, EnglishAreas } from '../../src/i18n/catalog';
import { backendMessages } from '../../src/i18n/messages/backend';
import { backgroundMessages } from '../../src/i18n/messages/background';
import { changedFileMessages } from '../../src/i18n/messages/changed-files';
import { changesMessages } from '../../src/i18n/messages/changes';
import { codeCardMessages } from '../../src/i18n/messages/code-card';
import { codeModeMessages } from '../../src/i18n/messages/code-mode';
import { contextMessages } from '../../src/i18n/messages/context';
import { contextPanelMessages } from '../../src/i18n/messages/context-panel';
import { conversationMessages } from '../../src/i18n/messages/conversation';
import { dialogMessages } from '../../src/i18n/messages/dialogs';
import { fileCardMessages } from '../../src/i18n/messages/file-cards';
import { forkMessages } from '../../src/i18n/messages/forks';
import { kernelMessages } from '../../src/i18n/messages/kernels';
import { mcpMessages } from '../../src/i18n/messages/mcp';
import { modelCompactionMessages } from '../../src/i18n/messages/model-compaction';
import { permissionMessages } from '../../src/i18n/messages/permissions';
import { sessionMessages } from '../../src/i18n/messages/sessions';
import { settingsMessages } from '../../src/i18n/messages/settings';
import { shellMessages } from '../../src/i18n/messages/shell';
import { toolBodyMessages } from '../../src/i18n/messages/tool-bodies';
import { toolCardMessages } from '../../src/i18n/messages/tool-cards';

// Every English area at once, as the app never holds them (it registers each with the part that uses it).
// For tests that compare against the whole catalog; typed, so a new area must be added here.

export const EN_AREAS: EnglishAreas = {
  backendMessages,
  backgroundMessages,
  changedFileMessages,
  changesMessages,
  codeCardMessages,
  codeModeMessages,
  contextPanelMessages,
  contextMessages,
  conversationMessages,
  dialogMessages,
  fileCardMessages,
  forkMessages,
  kernelMessages,
  mcpMessages,
  modelCompactionMessages,
  permissionMessages,
  sessionMessages,
  settingsMessages,
  shellMessages,
  toolBodyMessages,
  toolCardMessages,
};

export const EN_ALL: Catalog = Object.assign({}, ...Object.values(EN_AREAS));
