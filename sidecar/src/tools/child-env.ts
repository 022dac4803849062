import { knownSecrets, SECRET_ENV_NAMES } from '../secrets/known-secrets';

const SECRET_NAMES = new Set<string>(SECRET_ENV_NAMES.map((name) => name.toUpperCase()));

/**
 * Variables that describe Cairn's own runtime, not the user's: inside Electron, ELECTRON_RUN_AS_NODE
 * or NODE_OPTIONS would make every Electron or Node program the agent starts behave like Cairn's.
 */
const RUNTIME_PREFIXES = ['CAIRN_', 'ELECTRON_'];
const RUNTIME_NAMES = new Set(['NODE_OPTIONS', 'NODE_CHANNEL_FD', 'NODE_UNIQUE_ID']);

/**
 * The environment for a process Cairn starts (shell commands, kernels, MCP servers): a copy of `base`
 * without Cairn's secrets, so a command the model runs cannot read them. Drops every name in
 * SECRET_ENV_NAMES, every `CAIRN_*` and `ELECTRON_*` variable, Node's own runtime variables, and every
 * variable whose value holds a known secret.
 * Names are compared case-insensitively because Windows treats them so.
 */
export function childEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const secrets = knownSecrets();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (RUNTIME_PREFIXES.some((prefix) => upper.startsWith(prefix)) || RUNTIME_NAMES.has(upper)) continue;
    if (SECRET_NAMES.has(upper)) continue;
    // Containment, not just equality: `Bearer <token>` or a URL with the key leaks it as well.
    if (secrets.some((secret) => value.includes(secret))) continue;
    env[name] = value;
  }
  return env;
}
