/** How the local sidecar runs: which runtime, and with which Node flags. */
export interface LocalSidecarPlan {
  runner: { kind: 'utility-process' } | { kind: 'node'; nodePath: string };
  execArgv: string[];
}

/**
 * Packaged, the sidecar runs in Electron's utilityProcess (works with the RunAsNode fuse off; native
 * modules are rebuilt for Electron). In development the native modules in node_modules are built for
 * Node, so it runs under plain Node: CAIRN_DEV_NODE, else `node` from PATH. That Node's version is
 * unknown here, so it gets no version-dependent flags.
 */
export function localSidecarPlan(
  isPackaged: boolean,
  env: Record<string, string | undefined>,
  execArgvFor: (nodeVersion: string) => string[],
  electronNodeVersion: string,
): LocalSidecarPlan {
  if (isPackaged) return { runner: { kind: 'utility-process' }, execArgv: execArgvFor(electronNodeVersion) };
  return { runner: { kind: 'node', nodePath: env.CAIRN_DEV_NODE?.trim() || 'node' }, execArgv: [] };
}
