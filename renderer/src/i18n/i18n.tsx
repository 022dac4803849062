import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { CATALOG, LOCALES, type Locale } from './catalog';
import { dateTimeFormat, numberFormat } from './intl-cache';

const STORAGE_KEY = 'cairn.locale';
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

export type Translate = (key: string, params?: Record<string, string | number>) => string;

interface I18nValue {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate;
  formatNumber(n: number): string;
  formatDateTime(iso: string): string;
}

const I18nContext = createContext<I18nValue | null>(null);

/** The system language when it is one we have, else English. */
export function detectLocale(
  languages: readonly string[] = navigator.languages ?? [navigator.language],
): Locale {
  for (const language of languages) {
    if (/^zh\b/i.test(language)) return 'zh-CN';
    if (/^en\b/i.test(language)) return 'en';
  }
  return 'en';
}

function initialLocale(): Locale {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return (LOCALES as readonly string[]).includes(saved ?? '') ? (saved as Locale) : detectLocale();
}

/** Fills `{name}` placeholders; missing keys show the key itself so they are easy to spot. */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const template = CATALOG[locale][key] ?? CATALOG.en[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => fixed ?? initialLocale());
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLocaleState(next);
  }, []);
  const value = useMemo<I18nValue>(() => {
    // Made on first use (most screens never show a date).
    return {
      locale,
      setLocale,
      t: (key, params) => translate(locale, key, params),
      formatNumber: (n) => numberFormat(locale).format(n),
      formatDateTime: (iso) => dateTimeFormat(locale, DATE_TIME).format(new Date(iso)),
    };
  }, [locale, setLocale]);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n needs an I18nProvider above it');
  return value;
}

export function useT(): Translate {
  return useI18n().t;
}
