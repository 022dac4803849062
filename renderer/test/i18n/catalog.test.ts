import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/i18n/catalog';
import { ZH_CN_AREAS } from '../../src/i18n/catalog-zh-CN';
import { EN_AREAS } from '../support/english';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalog', () => {
  it('has every English string in every locale, area by area, with the same placeholders', () => {
    const locales = { 'zh-CN': ZH_CN_AREAS };
    for (const [locale, areas] of Object.entries(locales)) {
      expect(Object.keys(areas).sort(), locale).toEqual(Object.keys(EN_AREAS).sort());
      for (const [name, english] of Object.entries(EN_AREAS) as [keyof typeof EN_AREAS, Catalog][]) {
        const messages: Catalog = areas[name];
        expect(Object.keys(messages).sort(), `${locale} ${name}`).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(english)) {
          expect(placeholders(messages[key] ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
          expect((messages[key] ?? '').trim(), `${locale} ${key}`).not.toBe('');
        }
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
