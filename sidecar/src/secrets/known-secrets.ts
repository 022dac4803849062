/**
 * The secret values this process knows (API keys, the server token), so that logs can redact them
 * and child processes can be kept from inheriting them.
 */
const values = new Set<string>();

/** Environment variables that hold Cairn's own secrets or a provider key. */
export const SECRET_ENV_NAMES = [
  'CAIRN_TOKEN',
  'CAIRN_ANTHROPIC_API_KEY',
  'CAIRN_BACKEND_TOKEN',
  'CAIRN_JUPYTER_TOKEN',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
] as const;

export function registerSecret(value: string | null | undefined): void {
  // Very short values would redact ordinary words; real keys and tokens are long.
  if (value && value.length >= 8) values.add(value);
}

export function knownSecrets(): readonly string[] {
  return [...values];
}

export function registerSecretsFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_ENV_NAMES) registerSecret(env[name]);
}
