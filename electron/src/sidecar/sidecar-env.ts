import path from 'node:path';

/** Loopback names every HTTP client in the sidecar must reach directly, never through a proxy. */
const LOOPBACK_NO_PROXY = ['127.0.0.1', 'localhost', '::1'];

/**
 * Variables the sidecar must not inherit from the host: ELECTRON_RUN_AS_NODE and friends would change
 * how Electron's binaries behave in processes the sidecar starts; NODE_OPTIONS could inject code or
 * flags; the remote-backend settings (and CAIRN_BACKEND_TOKEN above all) belong to the host. CAIRN_TOKEN
 * too: the sidecar takes its token over the IPC channel only (see sidecar/src/protocol/host.ts), since
 * any process of the same user can read another's environment, and an inherited one would only confuse.
 */
function dropped(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    upper.startsWith('ELECTRON_') ||
    upper === 'NODE_OPTIONS' ||
    upper === 'CAIRN_TOKEN' ||
    upper === 'CAIRN_BACKEND_URL' ||
    upper === 'CAIRN_BACKEND_TOKEN'
  );
}

export interface SidecarBaseEnvOptions {
  /** The PATH a login shell reports (readLoginShellPath), or null when unknown or not needed. */
  loginPath: string | null;
  platform: NodeJS.Platform;
}

export interface SidecarEnvOptions extends SidecarBaseEnvOptions {
  dataDir: string;
}

/**
 * Everything of the sidecar's environment that does not change between launches: the host's
 * environment without the variables above, PATH with the login shell's entries first, loopback in
 * NO_PROXY. Applying it twice gives the same result, so a supervisor may apply it again per launch.
 */
export function sidecarBaseEnv(
  base: NodeJS.ProcessEnv,
  options: SidecarBaseEnvOptions,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !dropped(name)) env[name] = value;
  }

  const windows = options.platform === 'win32';
  const delimiter = windows ? path.win32.delimiter : path.posix.delimiter;
  // Windows spells it Path; a copied environment is case-sensitive, so find the spelling in use.
  const pathKey = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  const merged = mergeLists(
    [...(options.loginPath ?? '').split(delimiter), ...(env[pathKey] ?? '').split(delimiter)],
    windows,
  );
  for (const name of Object.keys(env)) if (name.toUpperCase() === 'PATH') delete env[name];
  env[pathKey] = merged.join(delimiter);

  const proxyKeys = Object.keys(env).filter((name) => name.toUpperCase() === 'NO_PROXY');
  const noProxy = mergeLists(
    [...proxyKeys.flatMap((name) => (env[name] ?? '').split(',')), ...LOOPBACK_NO_PROXY],
    true,
  ).join(',');
  for (const name of proxyKeys) delete env[name];
  env.NO_PROXY = noProxy;
  // Both spellings on POSIX: curl and Python prefer the lower-case one, others the upper-case one.
  // Windows names are case-insensitive, where two spellings would be one variable set twice.
  if (!windows) env.no_proxy = noProxy;
  return env;
}

/**
 * The sidecar's whole environment for one launch: the base plus its data directory. No secret of the
 * host's: the token goes over the IPC channel.
 */
export function sidecarEnv(base: NodeJS.ProcessEnv, options: SidecarEnvOptions): Record<string, string> {
  return { ...sidecarBaseEnv(base, options), CAIRN_DATA_DIR: options.dataDir };
}

/** Trimmed, non-empty entries in first-seen order. */
function mergeLists(entries: string[], caseInsensitive: boolean): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const key = caseInsensitive ? entry.toLowerCase() : entry;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}
