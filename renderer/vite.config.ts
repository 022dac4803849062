import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import pkg from '../package.json' with { type: 'json' };

// The renderer is written against React's API and runs on Preact's compatibility layer: the same
// components in a fraction of react-dom's size (the first screen's script budget). vitest.config.ts
// uses the same aliases, so the renderer's tests run what ships.
export const PREACT_ALIASES = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/** Polyfills a dependency brings for what every browser we run in has (build only). */
const NATIVE_ALIASES = [
  {
    find: /^@ungap\/structured-clone$/,
    replacement: path.resolve(import.meta.dirname, 'src/components/markdown/native-structured-clone.ts'),
  },
];

// Built into renderer/dist, which `cairn serve` serves and Electron loads from app://cairn.
export default defineConfig({
  root: path.resolve(import.meta.dirname),
  base: './',
  plugins: [react()],
  resolve: { alias: [...PREACT_ALIASES, ...NATIVE_ALIASES] },
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Lists which chunk holds what (renderer/test-node/build-split.test.ts checks the split).
    manifest: true,
  },
});
