import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from './app-paths';

/** Cairn's version, from the root package.json. */
export const VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(path.join(APP_ROOT, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
