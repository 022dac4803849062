import type { ModelSettings } from '../../agent/model-settings';
import type { WindowSettings } from '../../context/context-budget';
import { badRequest, CairnError, notFound } from '../../errors';
import type { CreateModelRequest, ModelConfig, ModelList, UpdateModelRequest } from '../../protocol';
import { DEFAULT_COMPACT_THRESHOLD } from '../../protocol';
import type { Keychain } from '../../secrets/keychain';
import type { ModelConfigRow } from '../../store/model-configs-repo';
import type { Store } from '../../store/store';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_TOKENS,
  keychainAccountForModel,
  modelEnvOverrides,
  resolveModelSettings,
} from './active-model';

/** Model configs as the API shows them (`has_key` from the keychain, never the key), and the active one. */
export class ModelService {
  constructor(
    private readonly store: Store,
    private readonly keychain: Keychain,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Every config, and what the environment sets over the active one. */
  async list(): Promise<ModelList> {
    const models = await Promise.all(this.store.models.list().map((row) => this.toWire(row)));
    return { models, env_overrides: modelEnvOverrides(this.env) };
  }

  /** A config's id from its id or its name (the command line takes either). */
  find(idOrName: string): string {
    const match = this.store.models.list().find((m) => m.id === idOrName || m.name === idOrName);
    if (!match) {
      throw new CairnError(
        'not_found',
        `No model config is called ${idOrName}. See \`cairn config model list\`.`,
      );
    }
    return match.id;
  }

  /** What a turn starting now talks to: the active config with the environment's overrides. */
  activeSettings(): Promise<ModelSettings> {
    return resolveModelSettings(this.store.models.active(), this.keychain, this.env);
  }

  /** The active model's window and threshold, which need no key (the context meter shows them without one). */
  activeWindow(): WindowSettings {
    const active = this.store.models.active();
    return {
      model: modelEnvOverrides(this.env).model ?? active?.model ?? 'none',
      contextWindow: active?.context_window ?? DEFAULT_CONTEXT_WINDOW,
      maxTokens: active?.max_tokens ?? DEFAULT_MAX_TOKENS,
      compactThreshold: active ? active.compact_threshold : DEFAULT_COMPACT_THRESHOLD,
    };
  }

  async create(input: CreateModelRequest): Promise<ModelConfig> {
    return this.toWire(this.store.models.create(input));
  }

  async update(id: string, patch: UpdateModelRequest): Promise<ModelConfig> {
    const current = this.store.models.get(id);
    if (!current) throw notFound('Model config', id);
    const maxTokens = patch.max_tokens ?? current.max_tokens;
    const thinking = patch.thinking_budget === undefined ? current.thinking_budget : patch.thinking_budget;
    if (thinking !== null && thinking >= maxTokens) {
      throw badRequest(`thinking_budget (${thinking}) must be smaller than max_tokens (${maxTokens}).`);
    }
    const row = this.store.models.update(id, patch);
    if (!row) throw notFound('Model config', id);
    return this.toWire(row);
  }

  async activate(id: string): Promise<ModelConfig> {
    if (!this.store.models.activate(id)) throw notFound('Model config', id);
    return this.toWire(this.store.models.get(id)!);
  }

  async delete(id: string): Promise<void> {
    if (!this.store.models.delete(id)) throw notFound('Model config', id);
    await this.keychain.delete(keychainAccountForModel(id)).catch(() => false);
  }

  /** Stores the key in the OS keychain; it is never readable through the API again. */
  async setKey(id: string, key: string): Promise<void> {
    if (!this.store.models.get(id)) throw notFound('Model config', id);
    await this.keychain.set(keychainAccountForModel(id), key);
  }

  private async toWire(row: ModelConfigRow): Promise<ModelConfig> {
    const key = await this.keychain.get(keychainAccountForModel(row.id)).catch(() => null);
    return { ...row, has_key: key !== null && key.length > 0 };
  }
}
