import { numberFormat } from '../../i18n/intl-cache';

/** Token counts short enough for a header ("12.3K"), in the reader's locale. */
export function shortTokens(n: number, locale: string): string {
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}
