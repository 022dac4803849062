import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type Catalog, LOCALES, type Locale } from './catalog';
import { EN_CATALOG } from './english';
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

// English: the first screen's areas, then each lazy part's as its chunk loads (english.ts). Every other locale
// is whole, a chunk of its own, fetched when chosen.
const catalogs: Partial<Record<Locale, Catalog>> = { en: EN_CATALOG };
const loading = new Map<Locale, Promise<void>>();
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Catalog>> = {
  'zh-CN': () => import('./catalog-zh-CN').then((module) => module.ZH_CN_CATALOG),
};

export function isLocaleLoaded(locale: Locale): boolean {
  return catalogs[locale] !== undefined;
}

/** Fetches a locale's strings once; the provider waits for it, and a test can call it first to render at once. */
export function loadLocale(locale: Locale): Promise<void> {
  if (locale === 'en' || catalogs[locale]) return Promise.resolve();
  let promise = loading.get(locale);
  if (!promise) {
    promise = LOADERS[locale]().then(
      (catalog) => {
        catalogs[locale] = catalog;
      },
      (error: unknown) => {
        loading.delete(locale);
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `Could not load the ${locale} interface strings (${reason}). Cairn shows English; reload the window or choose the language in Settings again.`,
        );
      },
    );
    loading.set(locale, promise);
  }
  return promise;
}

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

/**
 * Fills `{name}` placeholders; a key the locale lacks (or a locale not loaded) falls back to English, and a
 * missing key shows the key itself so it is easy to spot.
 */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const template = catalogs[locale]?.[key] ?? EN_CATALOG[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [wanted] = useState<Locale>(() => fixed ?? initialLocale());
  // The locale on screen; null until a non-English start locale's strings arrive, so English never flashes first.
  const [locale, setLocaleState] = useState<Locale | null>(() => (isLocaleLoaded(wanted) ? wanted : null));
  // The latest choice, so a slow load of an earlier one does not win.
  const latest = useRef<Locale>(wanted);

  const show = useCallback((next: Locale) => {
    latest.current = next;
    if (isLocaleLoaded(next)) {
      setLocaleState(next);
      return;
    }
    loadLocale(next).then(
      () => {
        if (latest.current === next) setLocaleState(next);
      },
      (error: unknown) => {
        console.error(error);
        setLocaleState((shown) => shown ?? 'en');
      },
    );
  }, []);
  useEffect(() => {
    if (locale === null) show(wanted);
  }, [locale, wanted, show]);

  const setLocale = useCallback(
    (next: Locale) => {
      localStorage.setItem(STORAGE_KEY, next);
      // The current language stays until the next one's strings are here.
      show(next);
    },
    [show],
  );
  const value = useMemo<I18nValue>(() => {
    const current = locale ?? 'en';
    // Made on first use (most screens never show a date).
    return {
      locale: current,
      setLocale,
      t: (key, params) => translate(current, key, params),
      formatNumber: (n) => numberFormat(current).format(n),
      formatDateTime: (iso) => dateTimeFormat(current, DATE_TIME).format(new Date(iso)),
    };
  }, [locale, setLocale]);
  if (locale === null) return null;
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
