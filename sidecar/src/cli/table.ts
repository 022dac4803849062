import type { Writable } from 'node:stream';

/** Prints rows as columns padded to their widest cell, under a header; the last column is not padded. */
export function printTable(out: Writable, header: string[], rows: string[][]): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  for (const row of [header, ...rows]) {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)));
    out.write(`${cells.join('  ').trimEnd()}\n`);
  }
}

/** A timestamp as `YYYY-MM-DD HH:MM` (UTC), short enough for a table. */
export function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16);
}

/** Prints the API's JSON shape, indented, for --json. */
export function printJson(out: Writable, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}
