import { numberFormat } from '../i18n/intl-cache';

/** An estimated cost in US dollars: cents for most, more digits for the fractions of a cent a turn often costs. */
export function formatCost(locale: string, dollars: number): string {
  return numberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: dollars !== 0 && Math.abs(dollars) < 1 ? 4 : 2,
  }).format(dollars);
}
