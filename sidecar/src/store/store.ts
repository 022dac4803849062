import path from 'node:path';
import { ArtifactsRepo } from './artifacts-repo';
import { ContextVersionsRepo } from './context-versions-repo';
import { type Db, type OpenDatabaseOptions, openDatabase } from './database';
import { EventJournal } from './event-journal';
import { ExperiencesRepo } from './experiences-repo';
import { McpServersRepo } from './mcp-servers-repo';
import { MessagesRepo } from './messages-repo';
import { ModelConfigsRepo } from './model-configs-repo';
import { PermissionRulesRepo } from './permission-rules-repo';
import { ProjectsRepo } from './projects-repo';
import { QuestionsRepo } from './questions-repo';
import { SearchBackfill } from './search-backfill';
import { SearchIndex } from './search-index';
import { SessionCopyRepo } from './session-copy-repo';
import { SessionImportRepo } from './session-import-repo';
import { SessionMcpRepo } from './session-mcp-repo';
import { SessionsRepo } from './sessions-repo';
import { SettingsRepo } from './settings-repo';
import { ToolCallsRepo } from './tool-calls-repo';
import { TurnFilesRepo } from './turn-files-repo';
import { TurnsRepo } from './turns-repo';

export const DATABASE_FILE = 'cairn.db';

/** The SQLite store: every table's repository over one connection. */
export class Store {
  readonly projects: ProjectsRepo;
  readonly sessions: SessionsRepo;
  readonly turns: TurnsRepo;
  readonly turnFiles: TurnFilesRepo;
  readonly messages: MessagesRepo;
  readonly events: EventJournal;
  readonly contextVersions: ContextVersionsRepo;
  readonly toolCalls: ToolCallsRepo;
  readonly questions: QuestionsRepo;
  readonly models: ModelConfigsRepo;
  readonly settings: SettingsRepo;
  readonly artifacts: ArtifactsRepo;
  readonly mcpServers: McpServersRepo;
  readonly sessionMcp: SessionMcpRepo;
  readonly experiences: ExperiencesRepo;
  readonly permissionRules: PermissionRulesRepo;
  /** Full-text search; the repositories that write what it covers keep it in step. */
  readonly search: SearchIndex;
  /** Indexes what was stored before search, a batch at a time. */
  readonly searchBackfill: SearchBackfill;
  readonly sessionCopy: SessionCopyRepo;
  readonly sessionImport: SessionImportRepo;

  constructor(readonly db: Db) {
    this.search = new SearchIndex(db);
    this.searchBackfill = new SearchBackfill(db);
    this.projects = new ProjectsRepo(db);
    this.sessions = new SessionsRepo(db);
    this.turns = new TurnsRepo(db);
    this.turnFiles = new TurnFilesRepo(db);
    this.messages = new MessagesRepo(db, this.search);
    this.events = new EventJournal(db, this.search);
    this.contextVersions = new ContextVersionsRepo(db);
    this.toolCalls = new ToolCallsRepo(db, this.search);
    this.questions = new QuestionsRepo(db);
    this.models = new ModelConfigsRepo(db);
    this.settings = new SettingsRepo(db);
    this.artifacts = new ArtifactsRepo(db);
    this.mcpServers = new McpServersRepo(db);
    this.sessionMcp = new SessionMcpRepo(db);
    this.experiences = new ExperiencesRepo(db);
    this.permissionRules = new PermissionRulesRepo(db);
    this.sessionCopy = new SessionCopyRepo(db);
    this.sessionImport = new SessionImportRepo(db);
  }

  static open(dataDir: string, options?: OpenDatabaseOptions): Store {
    return new Store(openDatabase(path.join(dataDir, DATABASE_FILE), options));
  }

  /** One transaction over every repository; journal listeners hear its events after it commits. */
  transaction<T>(fn: () => T): T {
    return this.events.transaction(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
