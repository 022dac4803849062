import fs from 'node:fs';
import path from 'node:path';

/** A fixture config file's path and text. */
export function fixture(name: string): { path: string; text: string } {
  const file = path.join(import.meta.dirname, 'fixtures', name);
  return { path: file, text: fs.readFileSync(file, 'utf8') };
}
