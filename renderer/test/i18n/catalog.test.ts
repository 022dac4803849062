import { describe, expect, it } from 'vitest';
import { CATALOG, LOCALES } from '../../src/i18n/catalog';
import { backendMessages } from '../../src/i18n/messages/backend';
import { backgroundMessages } from '../../src/i18n/messages/background';
import { contextMessages } from '../../src/i18n/messages/context';
import { conversationMessages } from '../../src/i18n/messages/conversation';
import { forkMessages } from '../../src/i18n/messages/forks';
import { kernelMessages } from '../../src/i18n/messages/kernels';
import { mcpMessages } from '../../src/i18n/messages/mcp';
import { modelCompactionMessages } from '../../src/i18n/messages/model-compaction';
import { permissionMessages } from '../../src/i18n/messages/permissions';
import { sessionMessages } from '../../src/i18n/messages/sessions';
import { settingsMessages } from '../../src/i18n/messages/settings';
import { shellMessages } from '../../src/i18n/messages/shell';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalog', () => {
  it('has every English string in every locale, with the same placeholders', () => {
    const english = CATALOG.en;
    for (const locale of LOCALES) {
      const messages = CATALOG[locale];
      expect(Object.keys(messages).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect(placeholders(messages[key] ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
        expect((messages[key] ?? '').trim(), `${locale} ${key}`).not.toBe('');
      }
    }
  });

  it('never defines one key in two areas (a later area would silently win)', () => {
    const areas = {
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
      sessionMessages,
    };
    const owner = new Map<string, string>();
    for (const [name, area] of Object.entries(areas)) {
      for (const key of Object.keys(area.en)) {
        expect(owner.get(key), `${key} is in ${owner.get(key)} and ${name}`).toBeUndefined();
        owner.set(key, name);
      }
    }
  });
});
