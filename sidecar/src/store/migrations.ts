/** The schema's history. Append only: a released migration is never edited. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'initial schema',
    sql: `
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_opened_at TEXT NOT NULL
);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  approval TEXT NOT NULL DEFAULT 'auto',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_seq INTEGER NOT NULL DEFAULT 0,
  context_head TEXT
);
CREATE INDEX sessions_by_project ON sessions(project_id, updated_at);
CREATE TABLE turns (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  prompt TEXT NOT NULL,
  status TEXT NOT NULL,
  error_code TEXT,
  error_message TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  continuations INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (session_id, ordinal),
  UNIQUE (session_id, request_id)
);
CREATE INDEX turns_by_status ON turns(status);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_id TEXT REFERENCES turns(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  internal INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX messages_by_session ON messages(session_id, id);
CREATE INDEX messages_by_turn ON messages(turn_id, id);
CREATE TABLE events (
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  turn_id TEXT,
  type TEXT NOT NULL,
  time TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
CREATE TABLE context_versions (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  parent_id TEXT,
  first_message_id INTEGER,
  summary TEXT,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (session_id, number)
);
CREATE TABLE tool_calls (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  tool_use_id TEXT NOT NULL,
  name TEXT NOT NULL,
  input TEXT NOT NULL,
  status TEXT NOT NULL,
  is_error INTEGER NOT NULL DEFAULT 0,
  preview TEXT,
  result_file TEXT,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  duration_ms INTEGER
);
CREATE INDEX tool_calls_by_turn ON tool_calls(turn_id, started_at);
CREATE INDEX tool_calls_by_status ON tool_calls(status);
CREATE TABLE questions (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  tool_call_id TEXT,
  kind TEXT NOT NULL,
  question TEXT NOT NULL,
  options TEXT,
  tool TEXT,
  status TEXT NOT NULL,
  answer TEXT,
  created_at TEXT NOT NULL,
  answered_at TEXT
);
CREATE INDEX questions_by_session ON questions(session_id, status);
CREATE TABLE model_configs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  model TEXT NOT NULL,
  base_url TEXT,
  context_window INTEGER NOT NULL,
  max_tokens INTEGER NOT NULL DEFAULT 8192,
  thinking_budget INTEGER,
  active INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX model_configs_one_active ON model_configs(active) WHERE active = 1;
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
  },
  {
    version: 2,
    description: "index events by turn, so a client can replay one turn's events",
    sql: 'CREATE INDEX events_by_turn ON events(turn_id, seq);',
  },
  {
    version: 3,
    description: 'artifacts: rich outputs of Python kernels saved as files, found by a random id',
    sql: `
CREATE TABLE artifacts (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  kernel TEXT NOT NULL,
  execution_id TEXT,
  mime TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  path TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX artifacts_by_session ON artifacts(session_id);
`,
  },
  {
    version: 4,
    description: "projects: the Python interpreter set for the project's kernels (null: the default)",
    sql: 'ALTER TABLE projects ADD COLUMN python_path TEXT;',
  },
  {
    version: 5,
    description:
      "MCP servers (secrets only as markers: their values live in the keychain) and sessions' snapshots",
    sql: `
CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL DEFAULT 0,
  config TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE session_mcp (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  snapshot TEXT,
  snapshot_at TEXT,
  reset_pending INTEGER NOT NULL DEFAULT 0
);
`,
  },
  {
    version: 6,
    description: "turns: the tokens the prompt cache served and stored, beside the turn's input and output",
    sql: `
ALTER TABLE turns ADD COLUMN cache_read_input_tokens INTEGER;
ALTER TABLE turns ADD COLUMN cache_creation_input_tokens INTEGER;
`,
  },
  {
    version: 7,
    description:
      'context that manages itself: compaction thresholds, what each context version cuts, the last request, experiences',
    sql: `
ALTER TABLE model_configs ADD COLUMN compact_threshold REAL DEFAULT 0.8;
ALTER TABLE context_versions ADD COLUMN level TEXT;
ALTER TABLE context_versions ADD COLUMN turn_id TEXT;
ALTER TABLE context_versions ADD COLUMN tokens_before INTEGER;
ALTER TABLE context_versions ADD COLUMN tokens_after INTEGER;
ALTER TABLE context_versions ADD COLUMN cuts TEXT;
ALTER TABLE context_versions ADD COLUMN kept_message_ids TEXT;
ALTER TABLE context_versions ADD COLUMN upto_message_id INTEGER;
ALTER TABLE sessions ADD COLUMN last_request TEXT;
CREATE TABLE experiences (
  id TEXT PRIMARY KEY,
  scope TEXT NOT NULL,
  session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
  project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  author TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX experiences_by_session ON experiences(session_id);
CREATE INDEX experiences_by_project ON experiences(project_id);
`,
  },
  {
    version: 8,
    description: 'find a tool call by its tool_use id (Block compaction names the file of each result)',
    sql: `
CREATE INDEX tool_calls_by_use ON tool_calls(session_id, tool_use_id);
`,
  },
  {
    version: 9,
    description:
      'the tool runtime: calls started by scripts (their parent call), background calls, exit codes and meta',
    sql: `
ALTER TABLE tool_calls ADD COLUMN parent_tool_call_id TEXT;
ALTER TABLE tool_calls ADD COLUMN background INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tool_calls ADD COLUMN exit_code INTEGER;
ALTER TABLE tool_calls ADD COLUMN meta TEXT;
CREATE INDEX tool_calls_by_parent ON tool_calls(parent_tool_call_id);
CREATE INDEX tool_calls_background ON tool_calls(session_id, background, started_at);
`,
  },
  {
    version: 10,
    description:
      "permissions: rules that allow, ask or deny calls, why an approval asks, and each project's sandbox",
    sql: `
CREATE TABLE permission_rules (
  id TEXT PRIMARY KEY,
  tool TEXT NOT NULL,
  pattern TEXT,
  action TEXT NOT NULL,
  project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
  session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE INDEX permission_rules_by_project ON permission_rules(project_id);
CREATE INDEX permission_rules_by_session ON permission_rules(session_id);
ALTER TABLE questions ADD COLUMN permission TEXT;
ALTER TABLE projects ADD COLUMN sandbox TEXT NOT NULL DEFAULT 'off';
ALTER TABLE projects ADD COLUMN sandbox_network TEXT NOT NULL DEFAULT 'on';
`,
  },
  {
    version: 11,
    description:
      "forks (child sessions of a turn, their tools), the agent's edits of its own context, questions a fork asks",
    sql: `
ALTER TABLE sessions ADD COLUMN parent_session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE;
ALTER TABLE sessions ADD COLUMN parent_turn_id TEXT;
ALTER TABLE sessions ADD COLUMN fork_task TEXT;
ALTER TABLE sessions ADD COLUMN fork_tools TEXT;
CREATE INDEX sessions_by_parent ON sessions(parent_session_id);
ALTER TABLE context_versions ADD COLUMN edited TEXT;
ALTER TABLE context_versions ADD COLUMN system_addition TEXT;
ALTER TABLE questions ADD COLUMN fork_id TEXT;
`,
  },
  {
    version: 12,
    description:
      'code as action: a session acts through tools or by writing code; a turn keeps its final answer',
    sql: `
ALTER TABLE sessions ADD COLUMN mode TEXT NOT NULL DEFAULT 'tools';
ALTER TABLE turns ADD COLUMN answer TEXT;
`,
  },
  {
    version: 13,
    description:
      'sessions branched from a turn of another, model prices for cost estimates, the model config each turn used',
    sql: `
ALTER TABLE sessions ADD COLUMN branched_from_session_id TEXT;
ALTER TABLE sessions ADD COLUMN branched_from_turn_id TEXT;
CREATE INDEX sessions_by_branch ON sessions(branched_from_session_id);
ALTER TABLE model_configs ADD COLUMN price_input REAL;
ALTER TABLE model_configs ADD COLUMN price_output REAL;
ALTER TABLE model_configs ADD COLUMN price_cache_read REAL;
ALTER TABLE model_configs ADD COLUMN price_cache_write REAL;
ALTER TABLE turns ADD COLUMN model_config_id TEXT;
`,
  },
  {
    version: 14,
    description:
      "full-text search over sessions' messages, tool calls and kernel cells (CJK as bigrams), filled from what is stored",
    sql: `
CREATE TABLE search_docs (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn_id TEXT,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  body TEXT NOT NULL,
  event_seq INTEGER,
  created_at TEXT NOT NULL,
  UNIQUE (session_id, kind, ref)
);
CREATE INDEX search_docs_by_session ON search_docs(session_id);
CREATE VIRTUAL TABLE search_fts USING fts5(
  body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
);
CREATE TRIGGER search_docs_deleted AFTER DELETE ON search_docs BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
END;
-- What is stored already is indexed after start, in batches (SearchBackfill): up to these marks.
INSERT INTO settings (key, value)
  SELECT 'search_backfill', json_object('message', 0, 'message_max', (SELECT COALESCE(MAX(id), 0) FROM messages),
    'tool_call', 0, 'tool_call_max', (SELECT COALESCE(MAX(rowid), 0) FROM tool_calls), 'event', json_array('', 0))
  WHERE EXISTS (SELECT 1 FROM messages) OR EXISTS (SELECT 1 FROM events WHERE type LIKE 'kernel.%');
`,
  },
  {
    version: 15,
    description:
      "turns record the project's files before and after (snapshot trees kept outside the project), and a revert is a turn",
    sql: `
ALTER TABLE turns ADD COLUMN kind TEXT NOT NULL DEFAULT 'prompt';
ALTER TABLE turns ADD COLUMN reverted_turn_id TEXT;
ALTER TABLE turns ADD COLUMN files_before TEXT;
ALTER TABLE turns ADD COLUMN files_after TEXT;
ALTER TABLE turns ADD COLUMN files_changed INTEGER;
ALTER TABLE turns ADD COLUMN files_note TEXT;
ALTER TABLE turns ADD COLUMN files_foreign TEXT;
ALTER TABLE turns ADD COLUMN files_not_restored TEXT;
`,
  },
  {
    version: 16,
    description:
      "MCP servers' form requests (elicitations) as questions: the server and the form it asks for",
    sql: `
ALTER TABLE questions ADD COLUMN elicitation TEXT;
`,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
