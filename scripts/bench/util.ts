import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A figure measured on the subject and on a reference taken in the same run. */
export interface Row {
  section: string;
  what: string;
  value: string;
  reference?: string;
  ratio?: string;
  note?: string;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** A fixed pseudo-random sequence, so every run makes the same data. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function ms(value: number, digits = 2): string {
  return `${value.toFixed(digits)} ms`;
}

export function us(valueMs: number): string {
  return `${(valueMs * 1000).toFixed(1)} µs`;
}

export function ratio(subject: number, reference: number): string {
  return reference > 0 ? `${(subject / reference).toFixed(2)}×` : 'n/a';
}

const made: string[] = [];

export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cairn-bench-${prefix}-`)));
  made.push(dir);
  return dir;
}

/** Removes every directory the bench made (and any the caller adds). */
export function removeDirs(extra: readonly string[] = []): void {
  for (const dir of [...made.splice(0), ...extra]) fs.rmSync(dir, { recursive: true, force: true });
}

export function printTable(rows: readonly Row[]): void {
  const header: Row = {
    section: '',
    what: 'measurement',
    value: 'subject',
    reference: 'reference',
    ratio: 'ratio',
    note: 'note',
  };
  const cells = (r: Row) => [r.what, r.value, r.reference ?? '', r.ratio ?? '', r.note ?? ''];
  const widths = [0, 0, 0, 0];
  for (const r of [header, ...rows]) {
    cells(r)
      .slice(0, 4)
      .forEach((c, i) => {
        widths[i] = Math.max(widths[i]!, [...c].length);
      });
  }
  const pad = (s: string, n: number, right = false) => {
    const fill = ' '.repeat(Math.max(0, n - [...s].length));
    return right ? fill + s : s + fill;
  };
  const line = (r: Row) => {
    const c = cells(r);
    return [
      pad(c[0]!, widths[0]!),
      pad(c[1]!, widths[1]!, true),
      pad(c[2]!, widths[2]!, true),
      pad(c[3]!, widths[3]!, true),
      c[4],
    ]
      .join('  ')
      .trimEnd();
  };
  const rule = '-'.repeat(widths.reduce((a, b) => a + b + 2, 0) + 4);
  let section: string | null = null;
  process.stdout.write(`${line(header)}\n`);
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      process.stdout.write(`${rule}\n${section}\n`);
    }
    process.stdout.write(`${line(r)}\n`);
  }
  process.stdout.write(`${rule}\n`);
}
