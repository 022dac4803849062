/** Which runtime the local sidecar runs in. */
export type LocalSidecarRunner = { kind: 'utility-process' } | { kind: 'node'; nodePath: string };

/**
 * Packaged, the sidecar runs in Electron's utilityProcess (works with the RunAsNode fuse off; native
 * modules are rebuilt for Electron). In development the native modules in node_modules are built for
 * Node, so it runs under plain Node: CAIRN_DEV_NODE, else `node` from PATH.
 */
export function localSidecarRunner(
  isPackaged: boolean,
  env: Record<string, string | undefined>,
): LocalSidecarRunner {
  if (isPackaged) return { kind: 'utility-process' };
  return { kind: 'node', nodePath: env.CAIRN_DEV_NODE?.trim() || 'node' };
}
