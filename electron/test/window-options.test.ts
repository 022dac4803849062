import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../src/window-options';

describe('main window options', () => {
  const prefs = mainWindowOptions('/app/dist/electron/preload.cjs').webPreferences ?? {};

  it.each([
    ['contextIsolation', true],
    ['sandbox', true],
    ['webSecurity', true],
    ['nodeIntegration', false],
    ['nodeIntegrationInWorker', false],
    ['nodeIntegrationInSubFrames', false],
    ['webviewTag', false],
    ['allowRunningInsecureContent', false],
    ['experimentalFeatures', false],
  ] as const)('sets %s to %s explicitly', (name, value) => {
    expect(prefs).toHaveProperty(name, value);
  });

  it('loads the given preload and turns off the spellchecker, which downloads dictionaries', () => {
    expect(prefs.preload).toBe('/app/dist/electron/preload.cjs');
    expect(prefs.spellcheck).toBe(false);
  });

  it('waits for the first paint before showing the window', () => {
    expect(mainWindowOptions('/p').show).toBe(false);
  });
});
