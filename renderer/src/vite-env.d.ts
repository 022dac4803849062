// Vite bundles imported stylesheets; TypeScript only needs to know the import is valid.
declare module '*.css';

/** Cairn's version from package.json, inlined by Vite's `define`. */
declare const __APP_VERSION__: string;
