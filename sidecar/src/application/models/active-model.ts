import type { ModelSettings } from '../../agent/model-settings';
import { CairnError } from '../../errors';
import { DEFAULT_COMPACT_THRESHOLD } from '../../protocol';
import type { Keychain } from '../../secrets/keychain';
import { registerSecret } from '../../secrets/known-secrets';
import type { ModelConfigRow } from '../../store/model-configs-repo';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const DEFAULT_MAX_TOKENS = 8192;

/** What the environment sets over the active config (never the key itself, only whether there is one). */
export function modelEnvOverrides(env: NodeJS.ProcessEnv = process.env): {
  key: boolean;
  model: string | null;
  base_url: string | null;
} {
  return {
    key: Boolean(env.CAIRN_ANTHROPIC_API_KEY),
    model: env.CAIRN_MODEL || null,
    base_url: env.CAIRN_ANTHROPIC_BASE_URL || null,
  };
}

export const keychainAccountForModel = (id: string): string => `model:${id}`;

/**
 * Resolves the active config plus CAIRN_MODEL / CAIRN_ANTHROPIC_BASE_URL / CAIRN_ANTHROPIC_API_KEY,
 * without saving the overrides.
 */
export async function resolveModelSettings(
  active: ModelConfigRow | null,
  keychain: Keychain,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelSettings> {
  const overrides = modelEnvOverrides(env);
  const model = overrides.model ?? active?.model;
  if (!model) {
    throw new CairnError(
      'model_no_key',
      'No model is configured. Add one in Settings, with `cairn config model add`, or set CAIRN_MODEL.',
    );
  }
  const apiKey = env.CAIRN_ANTHROPIC_API_KEY || (active ? await keyFromKeychain(active, keychain) : null);
  if (!apiKey) {
    throw new CairnError(
      'model_no_key',
      `No API key for model "${active?.name ?? model}". Set one in Settings, with \`cairn config model set-key\`, ` +
        'or set CAIRN_ANTHROPIC_API_KEY in the environment.',
    );
  }
  registerSecret(apiKey);
  return {
    // The config's prices price its model: a turn on a model CAIRN_MODEL put in its place has no known cost.
    configId: overrides.model && overrides.model !== active?.model ? null : (active?.id ?? null),
    name: active?.name ?? model,
    model,
    baseUrl: overrides.base_url ?? active?.base_url ?? DEFAULT_BASE_URL,
    apiKey,
    contextWindow: active?.context_window ?? DEFAULT_CONTEXT_WINDOW,
    maxTokens: active?.max_tokens ?? DEFAULT_MAX_TOKENS,
    thinkingBudget: active?.thinking_budget ?? null,
    compactThreshold: active ? active.compact_threshold : DEFAULT_COMPACT_THRESHOLD,
  };
}

async function keyFromKeychain(config: ModelConfigRow, keychain: Keychain): Promise<string | null> {
  try {
    return await keychain.get(keychainAccountForModel(config.id));
  } catch (error) {
    if (error instanceof CairnError && error.code === 'keychain_unavailable') {
      throw new CairnError('model_no_key', `No API key for model "${config.name}": ${error.message}`);
    }
    throw error;
  }
}
