import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The renderer runs on Preact's compatibility layer, where two React props do nothing: `autoFocus` (a
// browser honours `autofocus` only while a page loads; use the focusOnMount ref) and `spellCheck={false}`
// (dropped; write `spellCheck="false"`). Both fail silently in a browser, so the sources are read here.

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('props Preact does not honour', () => {
  it('are not used in the renderer', () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/(^|\s)autoFocus(\s|=|\/|>|$)|spellCheck=\{/.test(line))
          found.push(`${path.relative(SRC, file)}:${i + 1}`);
      });
    }
    expect(found).toEqual([]);
    // The search finds what it looks for (a file the renderer has, with the habit kept).
    expect(fs.readFileSync(path.join(SRC, 'components/sessions/SearchDialog.tsx'), 'utf8')).toContain(
      'spellCheck="false"',
    );
  });
});
