import { numberFormat } from './intl-cache';

const UNITS = ['kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size as people read it, in the locale's words: "512 bytes", "1.5 kB", "12.3 MB" (SI units). */
export function formatBytes(locale: string, bytes: number): string {
  if (bytes < 1000)
    return numberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const options = {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  } as const;
  return numberFormat(locale, options).format(value);
}
