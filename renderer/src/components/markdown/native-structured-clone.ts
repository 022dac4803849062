// mdast-util-to-hast copies nodes with @ungap/structured-clone, a polyfill of the structuredClone every
// browser we run in (and Electron) has: the build points that import here (renderer/vite.config.ts), which
// keeps 3 KB of polyfill out of the first screen's script.
export default globalThis.structuredClone;
