import { badRequest, notFound } from '../errors';
import type { CreateModelRequest, ModelConfig, UpdateModelRequest } from '../protocol';
import type { Keychain } from '../secrets/keychain';
import type { ModelConfigRow } from '../store/model-configs-repo';
import type { Store } from '../store/store';
import { keychainAccountForModel } from './model-settings';

/** Model configs as the API shows them: `has_key` from the keychain, never the key. */
export class ModelService {
  constructor(
    private readonly store: Store,
    private readonly keychain: Keychain,
  ) {}

  async list(): Promise<ModelConfig[]> {
    return Promise.all(this.store.models.list().map((row) => this.toWire(row)));
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
