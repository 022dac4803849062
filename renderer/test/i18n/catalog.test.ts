import { describe, expect, it } from 'vitest';
import { type Catalog, EN_AREAS, EN_CATALOG } from '../../src/i18n/catalog';
import { ZH_CN_CATALOG } from '../../src/i18n/catalog-zh-CN';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalog', () => {
  it('has every English string in every locale, with the same placeholders', () => {
    const locales: Record<string, Catalog> = { 'zh-CN': ZH_CN_CATALOG };
    for (const [locale, messages] of Object.entries(locales)) {
      expect(Object.keys(messages).sort(), locale).toEqual(Object.keys(EN_CATALOG).sort());
      for (const [key, text] of Object.entries(EN_CATALOG)) {
        expect(placeholders(messages[key] ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
        expect((messages[key] ?? '').trim(), `${locale} ${key}`).not.toBe('');
      }
    }
  });

  it('never defines one key in two areas (a later area would silently win)', () => {
    const owner = new Map<string, string>();
    for (const [name, area] of Object.entries(EN_AREAS)) {
      for (const key of Object.keys(area)) {
        expect(owner.get(key), `${key} is in ${owner.get(key)} and ${name}`).toBeUndefined();
        owner.set(key, name);
      }
    }
  });
});
