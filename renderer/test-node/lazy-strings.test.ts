import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  englishAreas,
  firstScreenAreas,
  MESSAGES,
  SRC,
  sourceFiles,
  staticImports,
} from './support/i18n-areas';

// English ships in areas (i18n/messages/<area>.ts). The first screen's areas are imported by catalog.ts; every
// other area registers its strings when its module is first imported (english.ts), so it loads with the
// lazy parts that use it. A key of an area not yet registered would show raw ("settings.title").
//
// The rule checked here, per source file: every key the file names (a string literal that is a key, or a
// template literal `prefix.${…}`, which may be any key starting with the prefix) belongs to a first-screen
// area or to an area the file itself imports. That is enough: a key only reaches `t()` at run time from the
// module that names it, and that module's imports run before any of its code, whichever chunk it lands in
// (a file both the first screen and a lazy part use included). It is stricter than needed when a lazy part's
// root already imported the area, but it keeps each file's strings next to it and needs no import graph.

/** Literals that are not keys but happen to equal one: event types the journal reducers switch on. */
const NOT_KEYS: Record<string, string[]> = {
  'state/kernel-view.ts': ['kernel.died'],
  'state/compaction-item.ts': ['context.compacted'],
  'state/use-context-info.ts': ['context.compacted'],
};

/** The keys a source names, exactly or by a template's prefix, each with the areas that define it. */
function keysNamed(text: string, owners: Map<string, string>): Map<string, Set<string>> {
  const named = new Map<string, Set<string>>();
  const add = (what: string, area: string) => named.set(what, (named.get(what) ?? new Set()).add(area));
  for (const match of text.matchAll(/(['"`])([A-Za-z][\w.-]*)\1/g)) {
    const area = owners.get(match[2]!);
    if (area) add(match[2]!, area);
  }
  // `kernel.${string}` is a type, not a key.
  for (const match of text.matchAll(/`([A-Za-z][\w.-]*\.)\$\{(?!string\})/g)) {
    for (const [key, area] of owners) if (key.startsWith(match[1]!)) add(`${match[1]}…`, area);
  }
  return named;
}

describe('the English strings of lazily loaded areas', () => {
  let owners: Map<string, string>;
  let areas: Map<string, Record<string, string>>;
  const firstScreen = firstScreenAreas();
  const rel = (file: string) => path.relative(SRC, file);

  beforeAll(async () => {
    areas = await englishAreas();
    owners = new Map();
    for (const [file, strings] of areas) for (const key of Object.keys(strings)) owners.set(key, file);
  });

  it('are registered by every file that names one of their keys', () => {
    const missing: string[] = [];
    for (const file of sourceFiles()) {
      const text = fs.readFileSync(file, 'utf8');
      const named = keysNamed(text, owners);
      for (const literal of NOT_KEYS[rel(file)] ?? []) named.delete(literal);
      const imported = new Set(staticImports(file));
      const unregistered = new Map<string, string[]>();
      for (const [key, keyAreas] of named) {
        for (const area of keyAreas) {
          if (!firstScreen.has(area) && !imported.has(area))
            unregistered.set(area, [...(unregistered.get(area) ?? []), key]);
        }
      }
      for (const [area, keys] of unregistered) {
        const spec = path.relative(path.dirname(file), area).replace(/\.ts$/, '');
        missing.push(
          `${rel(file)}: import '${spec.startsWith('.') ? spec : `./${spec}`}' (it names ${keys.join(', ')})`,
        );
      }
    }
    expect(missing).toEqual([]);
  });

  it('are checked against a real split: lazy areas exist and the sources name their keys', () => {
    const lazy = [...areas.keys()].filter((file) => !firstScreen.has(file));
    expect(lazy.map((file) => path.basename(file))).toContain('settings.ts');
    expect(firstScreen.has(path.join(MESSAGES, 'shell.ts'))).toBe(true);
    // The scan finds a key, a template's keys (t(`kernel.state.${…}`)) and an import where they are.
    const named = (file: string) => keysNamed(fs.readFileSync(path.join(SRC, file), 'utf8'), owners);
    const settings = path.join(MESSAGES, 'settings.ts');
    expect(named('components/SettingsPage.tsx').get('settings.title')).toEqual(new Set([settings]));
    expect(named('components/kernel/KernelPanel.tsx').get('kernel.state.…')).toEqual(
      new Set([path.join(MESSAGES, 'kernels.ts')]),
    );
    expect(staticImports(path.join(SRC, 'components/SettingsPage.tsx'))).toContain(settings);
  });

  it('lists as not-keys only literals still in those files', () => {
    for (const [file, literals] of Object.entries(NOT_KEYS)) {
      const text = fs.readFileSync(path.join(SRC, file), 'utf8');
      for (const literal of literals) {
        expect(text.includes(`'${literal}'`), `${file} ${literal}`).toBe(true);
        expect(owners.has(literal), `${literal} is no longer a key`).toBe(true);
      }
    }
  });
});
