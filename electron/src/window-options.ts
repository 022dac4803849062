import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The main window, locked down per Electron's security checklist: the page gets no Node, runs in
 * Chromium's sandbox in its own JavaScript world apart from the preload, and cannot embed
 * <webview> or load insecure content. Only the preload's small bridge crosses over.
 */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 840,
    minWidth: 720,
    minHeight: 480,
    title: 'Cairn',
    // Shown once the first paint is ready, so the window does not flash blank.
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      webSecurity: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Chromium's spellchecker downloads dictionaries from Google: nothing leaves the machine unasked.
      spellcheck: false,
    },
  };
}
