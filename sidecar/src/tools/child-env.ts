import { knownSecrets, SECRET_ENV_NAMES } from '../secrets/known-secrets';

const SECRET_NAMES = new Set<string>(SECRET_ENV_NAMES.map((name) => name.toUpperCase()));

/**
 * The environment for a process Cairn starts (shell commands, kernels, MCP servers): a copy of `base`
 * without Cairn's secrets, so a command the model runs cannot read them. Drops every name in
 * SECRET_ENV_NAMES, every `CAIRN_*` variable and every variable whose value holds a known secret.
 * Names are compared case-insensitively because Windows treats them so.
 */
export function childEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const secrets = knownSecrets();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (upper.startsWith('CAIRN_') || SECRET_NAMES.has(upper)) continue;
    // Containment, not just equality: `Bearer <token>` or a URL with the key leaks it as well.
    if (secrets.some((secret) => value.includes(secret))) continue;
    env[name] = value;
  }
  return env;
}
