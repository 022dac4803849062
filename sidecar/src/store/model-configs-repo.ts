import { type CreateModelRequest, DEFAULT_COMPACT_THRESHOLD, type UpdateModelRequest } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

/** A model config as stored: the key is never here (it lives in the keychain). */
export interface ModelConfigRow {
  id: string;
  name: string;
  model: string;
  base_url: string | null;
  context_window: number;
  max_tokens: number;
  thinking_budget: number | null;
  /** Null: no automatic compaction. */
  compact_threshold: number | null;
  /** US dollars per million tokens; null when not set. */
  price_input: number | null;
  price_output: number | null;
  price_cache_read: number | null;
  price_cache_write: number | null;
  active: boolean;
  created_at: string;
}

/** A config to add; without compact_threshold it gets the default. */
export type NewModelConfig = Omit<CreateModelRequest, 'compact_threshold'> & {
  compact_threshold?: number | null;
};

type Raw = Omit<ModelConfigRow, 'active'> & { active: number };
const toRow = (r: Raw): ModelConfigRow => ({ ...r, active: r.active === 1 });

export class ModelConfigsRepo {
  constructor(private readonly db: Db) {}

  create(input: NewModelConfig): ModelConfigRow {
    const id = newId('mdl');
    this.db.transaction(() => {
      const hasActive = this.db.prepare('SELECT 1 FROM model_configs WHERE active = 1').get() !== undefined;
      this.db
        .prepare(
          `INSERT INTO model_configs (id, name, model, base_url, context_window, max_tokens, thinking_budget, compact_threshold,
             price_input, price_output, price_cache_read, price_cache_write, active, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          input.name,
          input.model,
          input.base_url ?? null,
          input.context_window,
          input.max_tokens,
          input.thinking_budget ?? null,
          input.compact_threshold === undefined ? DEFAULT_COMPACT_THRESHOLD : input.compact_threshold,
          input.price_input ?? null,
          input.price_output ?? null,
          input.price_cache_read ?? null,
          input.price_cache_write ?? null,
          hasActive ? 0 : 1, // the first config becomes the active one
          now(),
        );
    })();
    return this.get(id)!;
  }

  get(id: string): ModelConfigRow | null {
    const r = this.db.prepare('SELECT * FROM model_configs WHERE id = ?').get(id) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  list(): ModelConfigRow[] {
    return (this.db.prepare('SELECT * FROM model_configs ORDER BY created_at, rowid').all() as Raw[]).map(
      toRow,
    );
  }

  active(): ModelConfigRow | null {
    const r = this.db.prepare('SELECT * FROM model_configs WHERE active = 1').get() as Raw | undefined;
    return r ? toRow(r) : null;
  }

  update(id: string, patch: UpdateModelRequest): ModelConfigRow | null {
    const current = this.get(id);
    if (!current) return null;
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    };
    this.db
      .prepare(
        `UPDATE model_configs SET name = ?, model = ?, base_url = ?, context_window = ?, max_tokens = ?, thinking_budget = ?,
           compact_threshold = ?, price_input = ?, price_output = ?, price_cache_read = ?, price_cache_write = ? WHERE id = ?`,
      )
      .run(
        next.name,
        next.model,
        next.base_url,
        next.context_window,
        next.max_tokens,
        next.thinking_budget,
        next.compact_threshold,
        next.price_input,
        next.price_output,
        next.price_cache_read,
        next.price_cache_write,
        id,
      );
    return this.get(id);
  }

  activate(id: string): boolean {
    return this.db.transaction(() => {
      if (!this.get(id)) return false;
      this.db.prepare('UPDATE model_configs SET active = 0 WHERE active = 1').run();
      this.db.prepare('UPDATE model_configs SET active = 1 WHERE id = ?').run(id);
      return true;
    })();
  }

  /** Deletes a config; when it was the active one, the oldest remaining becomes active. */
  delete(id: string): boolean {
    return this.db.transaction(() => {
      const deleted = this.db.prepare('DELETE FROM model_configs WHERE id = ?').run(id).changes > 0;
      if (deleted && !this.active()) {
        this.db
          .prepare(
            'UPDATE model_configs SET active = 1 WHERE id = (SELECT id FROM model_configs ORDER BY created_at, rowid LIMIT 1)',
          )
          .run();
      }
      return deleted;
    })();
  }
}
