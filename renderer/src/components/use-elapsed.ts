import { useEffect, useMemo, useState } from 'react';
import { useI18n } from '../i18n/i18n';
import { numberFormat } from '../i18n/intl-cache';

/** The time now, ticking every second while `active`. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** Formats a duration as the catalog says ("12 s", "3 min 4 s"), whole seconds or tenths, through Intl. */
export function useDurationFormat(): (ms: number, whole: boolean) => string {
  const { locale, t } = useI18n();
  return useMemo(() => {
    const tenths = numberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const whole = numberFormat(locale, { maximumFractionDigits: 0 });
    return (ms: number, wholeSeconds: boolean) => {
      const safe = Math.max(0, ms);
      if (safe < 60_000) {
        const seconds = wholeSeconds ? whole.format(Math.floor(safe / 1000)) : tenths.format(safe / 1000);
        return t('tool.elapsed.seconds', { seconds });
      }
      const minutes = Math.floor(safe / 60_000);
      const seconds = Math.floor((safe % 60_000) / 1000);
      return t('tool.elapsed.minutes', { minutes: whole.format(minutes), seconds: whole.format(seconds) });
    };
  }, [locale, t]);
}
