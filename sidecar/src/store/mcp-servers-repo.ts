import type { McpTransport } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

/** A value as stored: a literal, an environment reference, or the marker of a secret kept in the keychain. */
export type StoredMcpValue = string | { env: string } | { secret: true };

/** A server's OAuth settings as stored (the client secret as a value: literal, env reference or secret marker). */
export interface StoredMcpOAuth {
  client_id?: string;
  client_secret?: StoredMcpValue;
  scopes?: string[];
  client_metadata_url?: string;
}

/** A server's settings as stored; a secret's value is never here. */
export interface McpServerConfig {
  name: string;
  transport: McpTransport;
  command: string | null;
  env: Record<string, StoredMcpValue>;
  url: string | null;
  headers: Record<string, StoredMcpValue>;
  bearer_token: StoredMcpValue | null;
  /** streamable_http: how to log in with OAuth (null: Cairn's defaults). */
  oauth: StoredMcpOAuth | null;
  allow_tools: string[] | null;
  deny_tools: string[];
  startup_timeout_sec: number;
  tool_timeout_sec: number;
  block_on_failure: boolean;
}

export interface McpServerRow {
  id: string;
  enabled: boolean;
  config: McpServerConfig;
  created_at: string;
  updated_at: string;
}

interface Raw {
  id: string;
  name: string;
  enabled: number;
  config: string;
  created_at: string;
  updated_at: string;
}

const toRow = (r: Raw): McpServerRow => ({
  id: r.id,
  enabled: r.enabled === 1,
  config: parseConfig(r),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function parseConfig(r: Raw): McpServerConfig {
  const config = JSON.parse(r.config) as McpServerConfig;
  // Configs stored before OAuth have no `oauth`.
  return { ...config, oauth: config.oauth ?? null, name: r.name };
}

export class McpServersRepo {
  constructor(private readonly db: Db) {}

  /** New servers start disabled. */
  create(config: McpServerConfig): McpServerRow {
    const id = newId('mcp');
    const at = now();
    this.db
      .prepare(
        'INSERT INTO mcp_servers (id, name, enabled, config, created_at, updated_at) VALUES (?, ?, 0, ?, ?, ?)',
      )
      .run(id, config.name, JSON.stringify(config), at, at);
    return this.get(id)!;
  }

  get(id: string): McpServerRow | null {
    const r = this.db.prepare('SELECT * FROM mcp_servers WHERE id = ?').get(id) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  byName(name: string): McpServerRow | null {
    const r = this.db.prepare('SELECT * FROM mcp_servers WHERE name = ?').get(name) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  list(): McpServerRow[] {
    return (this.db.prepare('SELECT * FROM mcp_servers ORDER BY created_at, id').all() as Raw[]).map(toRow);
  }

  enabled(): McpServerRow[] {
    return this.list().filter((r) => r.enabled);
  }

  update(id: string, config: McpServerConfig, enabled: boolean): McpServerRow | null {
    const result = this.db
      .prepare('UPDATE mcp_servers SET name = ?, enabled = ?, config = ?, updated_at = ? WHERE id = ?')
      .run(config.name, enabled ? 1 : 0, JSON.stringify(config), now(), id);
    return result.changes > 0 ? this.get(id) : null;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM mcp_servers WHERE id = ?').run(id).changes > 0;
  }
}
