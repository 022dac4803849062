import { defineConfig } from 'vitest/config';
import pkg from './package.json' with { type: 'json' };
import { PREACT_ALIASES } from './renderer/vite.config.ts';

export default defineConfig({
  // As renderer/vite.config.ts does for the build, so tests that import App see the real version.
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  resolve: {
    alias: [
      // Testing Library's ES build (its CommonJS one would require react-dom itself).
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
      ...PREACT_ALIASES,
    ],
  },
  test: {
    // Packages that import React, transformed so that they get Preact as the build does.
    server: { deps: { inline: [/@testing-library\/react/, /@tanstack\/react-virtual/, /react-markdown/] } },
    include: [
      'sidecar/test/**/*.test.ts',
      'scripts/**/*.test.ts',
      'renderer/test/**/*.test.{ts,tsx}',
      'renderer/e2e/**/*.test.ts',
      'renderer/test-node/**/*.test.ts',
      'electron/test/**/*.test.ts',
    ],
    pool: 'forks',
    // Generous per-test ceilings guard against hangs; speed itself is measured by `npm run bench`.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
