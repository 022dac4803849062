import fs from 'node:fs';
import path from 'node:path';
import { CairnError, notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import { McpAuthRequiredError, McpConnection } from '../../mcp/mcp-connection';
import type { LoginEvent } from '../../mcp/oauth/server-oauth';
import { resolveServer } from '../../mcp/resolve-server';
import { agentToolNames, nameOwner } from '../../mcp/tool-names';
import type { McpLogLevel, McpSessionServer, McpSessionStatus } from '../../protocol';
import type { Keychain } from '../../secrets/keychain';
import type { Store } from '../../store/store';
import { childEnv } from '../../tools/child-env';
import { mcpAgentTool } from '../../tools/mcp-tool';
import type { Tool } from '../../tools/tool';
import type { ToolScope, ToolSource } from '../../tools/tool-source';
import type { SessionResource } from '../sessions/session-resources';
import { McpLogRelay } from './mcp-log-relay';
import type { McpOAuthService } from './mcp-oauth-service';
import { mcpSecretAccount } from './mcp-secret-account';
import { applyCallLogin, applyLoginEvent, type ServerSlot, waitForLogins } from './mcp-session-logins';

export interface McpSessionServiceOptions {
  store: Store;
  keychain: Keychain;
  /** Logins of servers that answer 401: a turn waits for them before its first model request. */
  oauth: McpOAuthService;
  dataDir: string;
  /** The sidecar's environment: what env references read, and (without secrets) what servers start from. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Whether a turn of the session runs now (a reset then waits for the next turn). */
  isSessionRunning: (sessionId: string) => boolean;
}

interface SessionServers {
  snapshotAt: string;
  slots: ServerSlot[];
  /** Connecting, so two turns (or a turn and a reset) do not start the same servers twice. */
  busy: Promise<void> | null;
  /** Where its stdio servers run (the project folder or a scratch one), once a turn has prepared it. */
  cwd: string | null;
  /** A server's tool list changed since the turn began: the turn's next request gets the new tools. */
  toolsChanged: boolean;
  /** Every agent name handed out while these connections lived (name → its tool): never given to another. */
  givenNames: Map<string, string>;
}

/**
 * The MCP servers of each session: the enabled servers are snapshot at the session's first run (later
 * changes apply to sessions not yet run; a reset loads the current configuration before the next message),
 * connections are held per session and reused across turns, and every way a session ends stops them with
 * their process trees.
 */
export class McpSessionService implements ToolSource, SessionResource {
  private readonly sessions = new Map<string, SessionServers>();
  private closed = false;

  constructor(private readonly options: McpSessionServiceOptions) {
    options.oauth.onEvent((serverId, event) => this.onLoginEvent(serverId, event));
  }

  /**
   * The session's MCP tools for a turn about to start: takes the snapshot if there is none (or a reset is
   * pending), connects servers not connected (failed or crashed ones are tried again), and names the tools.
   * A server marked block_on_failure that does not connect stops the turn with an error naming it.
   * Cancelling the turn (`signal`) stops the servers still starting; the next turn tries them again.
   */
  async toolsForTurn({ sessionId, turnId, projectRoot, signal }: ToolScope): Promise<Tool[]> {
    if (this.closed) return [];
    const session = await this.prepare(sessionId, turnId, projectRoot, signal);
    if (!session) return [];
    await this.waitForLogins(sessionId, turnId, session, projectRoot, signal);
    if (this.sessions.get(sessionId) !== session) return [];
    const blocking = session.slots.filter(
      (s) => s.row.config.block_on_failure && s.state !== 'connected' && !s.loginInCall,
    );
    if (blocking.length > 0) {
      throw new CairnError(
        'mcp_unavailable',
        blocking
          .map(
            (s) =>
              `The MCP server "${s.row.config.name}" must connect before this session runs, and it did not: ${s.error ?? s.state}.`,
          )
          .join(' ') +
          ' Fix it in Settings → MCP (or switch off "block the session"), then reset the session\'s MCP servers.',
      );
    }
    session.toolsChanged = false;
    return this.tools(session);
  }

  /** After a server's `list_changed` during the turn: the session's MCP tools as they are now. */
  currentTools({ sessionId }: ToolScope): Tool[] | null {
    const session = this.sessions.get(sessionId);
    return session?.toolsChanged ? this.tools(session) : null;
  }

  status(sessionId: string): McpSessionStatus {
    if (!this.options.store.sessions.get(sessionId)) throw notFound('Session', sessionId);
    const stored = this.options.store.sessionMcp.get(sessionId);
    const session = this.sessions.get(sessionId);
    const resetPending = stored?.reset_pending ?? false;
    if (!session) {
      const rows = resetPending ? [] : (stored?.snapshot ?? []);
      return {
        snapshot_at: resetPending ? null : (stored?.snapshot_at ?? null),
        reset_pending: resetPending,
        servers: rows.map((row) => ({
          server_id: row.id,
          name: row.config.name,
          transport: row.config.transport,
          state: 'not_started',
          error: null,
          authorization_url: null,
          tools: [],
        })),
      };
    }
    const names = this.names(session);
    return {
      snapshot_at: session.snapshotAt,
      reset_pending: resetPending,
      servers: session.slots.map(
        (slot): McpSessionServer => ({
          server_id: slot.row.id,
          name: slot.row.config.name,
          transport: slot.row.config.transport,
          state: slot.state,
          error: slot.error,
          authorization_url: slot.state === 'auth_required' ? slot.authorizationUrl : null,
          tools: (slot.connection?.tools ?? [])
            .filter((t) => t.allowed)
            .map((t) => ({
              agent_name: names.get(slot.row.id)?.get(t.name) ?? t.name,
              name: t.name,
              description: t.description,
              available: slot.state === 'connected',
            })),
        }),
      ),
    };
  }

  /**
   * Loads the current configuration before the session's next message. Connections stop now unless a turn
   * is running (it keeps its tools; the next turn starts afresh). History is untouched.
   */
  async reset(sessionId: string): Promise<McpSessionStatus> {
    if (!this.options.store.sessions.get(sessionId)) throw notFound('Session', sessionId);
    this.options.store.sessionMcp.markReset(sessionId);
    if (!this.options.isSessionRunning(sessionId)) await this.closeSession(sessionId);
    return this.status(sessionId);
  }

  /** Stops the session's servers (its deletion, or a reset). */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (session) await stopAll(session);
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(stopAll));
  }

  private async prepare(
    sessionId: string,
    turnId: string,
    projectRoot: string | null,
    signal?: AbortSignal,
  ): Promise<SessionServers | null> {
    const { store } = this.options;
    let stored = store.sessionMcp.get(sessionId);
    let session = this.sessions.get(sessionId);
    if (!stored?.snapshot || stored.reset_pending) {
      if (session) await this.closeSession(sessionId);
      stored = store.sessionMcp.takeSnapshot(sessionId, store.mcpServers.enabled());
      session = undefined;
    }
    const rows = stored.snapshot ?? [];
    if (rows.length === 0) return null;
    if (!session) {
      session = {
        snapshotAt: stored.snapshot_at ?? new Date().toISOString(),
        slots: rows.map((row) => ({
          row,
          connection: null,
          state: 'not_started',
          error: null,
          authorizationUrl: null,
          authRequiredAt: 0,
          loginInCall: false,
          turnWaits: false,
          stopWatching: null,
        })),
        busy: null,
        cwd: null,
        toolsChanged: false,
        givenNames: new Map(),
      };
      this.sessions.set(sessionId, session);
    }
    const current = session;
    while (current.busy) await current.busy;
    const cwd = projectRoot ?? this.scratchDir(sessionId);
    current.cwd = cwd;
    current.busy = (async () => {
      await Promise.all(
        current.slots
          // A connection whose call waits for a login is connected all the same.
          .filter((s) => s.state !== 'connected' && !s.loginInCall)
          .map((s) => this.connect(sessionId, turnId, s, cwd, signal)),
      );
    })();
    try {
      await current.busy;
    } finally {
      current.busy = null;
    }
    // A reset or deletion while connecting: what was started belongs to nobody now.
    if (this.sessions.get(sessionId) !== current) {
      await stopAll(current);
      return null;
    }
    return current;
  }

  private async connect(
    sessionId: string,
    turnId: string | null,
    slot: ServerSlot,
    cwd: string,
    signal?: AbortSignal,
  ): Promise<void> {
    slot.stopWatching?.();
    await slot.connection?.close().catch(() => {});
    slot.connection = null;
    slot.state = 'connecting';
    slot.error = null;
    slot.authorizationUrl = null;
    slot.loginInCall = false;
    this.report(sessionId, turnId, slot);
    try {
      const { server: resolved, oauthClient } = await resolveServer(slot.row.config, {
        serverId: slot.row.id,
        cwd,
        baseEnv: childEnv(this.options.env),
        lookupEnv: this.options.env,
        keychain: this.options.keychain,
        secretAccount: mcpSecretAccount,
      });
      const server = this.options.oauth.attach(slot.row, resolved, oauthClient);
      const connection = await McpConnection.connect(server, {
        logger: this.options.logger.child({ mcp_server: slot.row.config.name }),
        ...(signal ? { signal } : {}),
      });
      slot.connection = connection;
      slot.state = connection.state;
      const relay = new McpLogRelay((level, data) => this.journalLog(sessionId, slot, level, data));
      const stops = [
        connection.onStateChange((state, error) => {
          slot.state = state;
          slot.error = error;
          // A crash comes between turns as often as during one: it belongs to no turn.
          if (state !== 'stopped') this.report(sessionId, null, slot);
        }),
        connection.onLog((level, data) => relay.log(level, data)),
        connection.onLoginWait((url) => {
          applyCallLogin(slot, url);
          // A call of the running turn waits: its status line (and `cairn run`) say which server, and where.
          this.report(sessionId, this.options.store.turns.running(sessionId)?.id ?? null, slot);
        }),
        connection.onToolsChange(() => {
          const session = this.sessions.get(sessionId);
          if (session?.slots.includes(slot)) session.toolsChanged = true;
          this.report(sessionId, null, slot);
        }),
      ];
      slot.stopWatching = () => {
        for (const stop of stops) stop();
        relay.close();
      };
    } catch (err) {
      slot.state = err instanceof McpAuthRequiredError ? 'auth_required' : 'failed';
      slot.error = err instanceof Error ? err.message : String(err);
      if (err instanceof McpAuthRequiredError) {
        slot.authorizationUrl = err.authorizationUrl;
        slot.authRequiredAt = Date.now();
      }
      this.options.logger.warn('an MCP server did not connect', {
        server: slot.row.config.name,
        error: slot.error,
      });
    }
    this.report(sessionId, turnId, slot);
  }

  /** Puts a server's state on the session's journal: the progress of a turn's start, and crashes. */
  private report(sessionId: string, turnId: string | null, slot: ServerSlot): void {
    if (slot.state === 'not_started' || !this.options.store.sessions.get(sessionId)) return;
    this.options.store.events.append(sessionId, {
      type: 'mcp.server',
      turn_id: turnId,
      server_id: slot.row.id,
      name: slot.row.config.name,
      state: slot.state,
      error: slot.error,
      authorization_url: slot.state === 'auth_required' ? slot.authorizationUrl : null,
      tools: slot.state === 'connected' ? (slot.connection?.tools.filter((t) => t.allowed).length ?? 0) : 0,
    });
  }

  /** Before the turn's first model request: the servers that need a login are waited for, then connected. */
  private async waitForLogins(
    sessionId: string,
    turnId: string,
    session: SessionServers,
    projectRoot: string | null,
    signal?: AbortSignal,
  ): Promise<void> {
    if (!session.slots.some((s) => s.state === 'auth_required' && !s.connection && s.authorizationUrl))
      return;
    const cwd = projectRoot ?? this.scratchDir(sessionId);
    await waitForLogins(session.slots, this.options.oauth, signal, {
      report: (slot) => this.report(sessionId, turnId, slot),
      connect: (slot) => this.connect(sessionId, turnId, slot, cwd, signal),
      current: () => this.sessions.get(sessionId) === session,
    });
  }

  private onLoginEvent(serverId: string, event: LoginEvent): void {
    for (const [sessionId, session] of this.sessions) {
      for (const slot of session.slots) {
        if (slot.row.id !== serverId || !applyLoginEvent(slot, event)) continue;
        this.report(sessionId, null, slot);
        // Logged in (from settings, another session) while no turn waits for it: it connects now.
        if (event.kind === 'authorized' && !slot.turnWaits && session.cwd !== null && !session.busy) {
          const run = this.connect(sessionId, null, slot, session.cwd).finally(() => {
            if (session.busy === run) session.busy = null;
          });
          session.busy = run;
        }
      }
    }
  }

  /** A server's log message (already bounded by its relay) for the session's MCP panel. */
  private journalLog(sessionId: string, slot: ServerSlot, level: McpLogLevel, data: unknown): void {
    if (!this.options.store.sessions.get(sessionId)) return;
    this.options.store.events.append(sessionId, {
      type: 'mcp.log',
      turn_id: null,
      server_id: slot.row.id,
      level,
      data,
    });
  }

  private names(session: SessionServers): Map<string, Map<string, string>> {
    const names = agentToolNames(
      session.slots.map((s) => ({
        serverId: s.row.id,
        serverName: s.row.config.name,
        tools: (s.connection?.tools ?? []).filter((t) => t.allowed).map((t) => t.name),
      })),
      session.givenNames,
    );
    for (const [serverId, tools] of names)
      for (const [tool, name] of tools) session.givenNames.set(name, nameOwner(serverId, tool));
    return names;
  }

  private tools(session: SessionServers): Tool[] {
    const names = this.names(session);
    // A server that crashed during the turn keeps its tools there (they say it is not connected).
    return session.slots.flatMap((slot) =>
      (slot.state !== 'connected' && slot.state !== 'crashed' && !slot.loginInCall) || !slot.connection
        ? []
        : slot.connection.tools
            .filter((def) => def.allowed)
            .map((def) =>
              mcpAgentTool({
                agentName: names.get(slot.row.id)?.get(def.name) ?? def.name,
                serverName: slot.row.config.name,
                def,
                connection: () => slot.connection,
              }),
            ),
    );
  }

  private scratchDir(sessionId: string): string {
    const dir = path.join(this.options.dataDir, 'sessions', sessionId, 'mcp-scratch');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }
}

async function stopAll(session: SessionServers): Promise<void> {
  await Promise.all(
    session.slots.map(async (slot) => {
      slot.stopWatching?.();
      const connection = slot.connection;
      slot.connection = null;
      slot.state = 'stopped';
      await connection?.close().catch(() => {});
    }),
  );
}
