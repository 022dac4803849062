import type * as z from 'zod/mini';
import type {
  AnswerQuestionRequest,
  ApprovalMode,
  CompactRequest,
  CreateExperienceRequest,
  CreateMcpServerRequest,
  CreateModelRequest,
  CreatePermissionRuleRequest,
  ListPermissionRulesQuery,
  McpImportRequest,
  SearchQuery,
  SessionMode,
  SetMcpSecretsRequest,
  TestPermissionRequest,
  UpdateExperienceRequest,
  UpdateKernelProviderRequest,
  UpdateMcpServerRequest,
  UpdateModelRequest,
  UpdatePermissionRuleRequest,
  UpdateProjectRequest,
} from '../protocol';
import {
  About,
  Capabilities,
  CompactResponse,
  ContextInfo,
  ContextVersionList,
  ContextVersionView,
  type ErrorCode,
  ErrorResponse,
  EventList,
  Experience,
  ExperienceList,
  FileChanges,
  Health,
  KernelExecuteAccepted,
  KernelInterruptResult,
  KernelList,
  KernelProviderSettings,
  KernelProviderTestResult,
  KernelVariableList,
  McpAuthorizeResult,
  McpImportPreview,
  McpImportResult,
  McpServer,
  McpServerList,
  McpSessionStatus,
  McpTestResult,
  ModelConfig,
  ModelList,
  PermissionDecision,
  PermissionRule,
  PermissionRuleList,
  Project,
  ProjectList,
  ProjectPython,
  Question,
  QuestionList,
  RevertResult,
  SearchResult,
  Session,
  SessionDetail,
  SessionExport,
  SessionList,
  ToolCall,
  ToolCallOutput,
  ToolCallWithResult,
  ToolRuntimeInfo,
  Turn,
  TurnPage,
} from '../protocol';

/** Where the sidecar is and the token it wants. */
export interface Backend {
  url: string;
  token: string;
}

/**
 * An error the API answered with (its stable `code`; one this client does not know reads as `internal`),
 * or one of the client's own (`network` when the server could not be reached, `not_cairn`, …).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Fetch = typeof fetch;

/** The one typed client of the sidecar API: every response is validated by its protocol schema. */
export class CairnClient {
  readonly base: string;

  constructor(
    readonly backend: Backend,
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
  ) {
    this.base = backend.url.replace(/\/+$/, '');
  }

  health = () => this.request('GET', '/api/health', Health, undefined, false);
  capabilities = () => this.request('GET', '/api/capabilities', Capabilities);
  about = () => this.request('GET', '/api/about', About);

  listProjects = async () => (await this.request('GET', '/api/projects', ProjectList)).projects;
  openProject = (path: string) => this.request('POST', '/api/projects', Project, { path });
  deleteProject = (id: string) => this.request('DELETE', `/api/projects/${enc(id)}`, null);
  /** Sets the interpreter of the project's kernels (checked by the server), or null for the default. */
  setProjectPython = (id: string, pythonPath: string | null) =>
    this.request('PATCH', `/api/projects/${enc(id)}`, Project, { python_path: pythonPath });
  /** Changes a project's settings; turning the sandbox on answers 409 sandbox_unavailable where it cannot run. */
  updateProject = (id: string, patch: UpdateProjectRequest) =>
    this.request('PATCH', `/api/projects/${enc(id)}`, Project, patch);
  /** Which interpreter the project's kernels would start with (the server runs it to read its version). */
  projectPython = (id: string) => this.request('GET', `/api/projects/${enc(id)}/python`, ProjectPython);

  listSessions = async (projectId?: string) =>
    (
      await this.request(
        'GET',
        `/api/sessions${projectId ? `?project_id=${enc(projectId)}` : ''}`,
        SessionList,
      )
    ).sessions;
  createSession = (input: {
    project_id?: string | null;
    title?: string;
    approval?: ApprovalMode;
    mode?: SessionMode;
  }) => this.request('POST', '/api/sessions', Session, input);
  /** One session with the forks its turns spawned (a fork itself is read here: the list leaves forks out). */
  getSession = (id: string) => this.request('GET', `/api/sessions/${enc(id)}`, SessionDetail);
  updateSession = (id: string, patch: { title?: string; approval?: ApprovalMode; mode?: SessionMode }) =>
    this.request('PATCH', `/api/sessions/${enc(id)}`, Session, patch);
  deleteSession = (id: string) => this.request('DELETE', `/api/sessions/${enc(id)}`, null);
  /** A new session whose history is this one's up to and including `turnId`; this one is untouched. */
  branchSession = (id: string, turnId: string) =>
    this.request('POST', `/api/sessions/${enc(id)}/branch`, Session, { turn_id: turnId });
  /** The session as Markdown, for reading. */
  exportMarkdown = (id: string) => this.text(`/api/sessions/${enc(id)}/export?format=md`);
  /** The session as JSON that importSession brings back. */
  exportJson = (id: string) =>
    this.request('GET', `/api/sessions/${enc(id)}/export?format=json`, SessionExport);
  /** Brings an exported session back as a new session (in `projectId`'s project when given). */
  importSession = (data: SessionExport | unknown, projectId?: string) =>
    this.request(
      'POST',
      `/api/sessions/import${projectId ? `?project_id=${enc(projectId)}` : ''}`,
      Session,
      data,
    );

  /** Ranked hits in messages, tool calls and kernel cells; page with `before: next_before`. */
  search = (input: SearchQuery | (Pick<SearchQuery, 'q'> & Partial<SearchQuery>)) =>
    this.request(
      'GET',
      `/api/search${textQuery({
        q: input.q,
        project_id: input.project_id,
        session_id: input.session_id,
        limit: input.limit === undefined ? undefined : String(input.limit),
        before: input.before,
      })}`,
      SearchResult,
    );

  startTurn = (sessionId: string, prompt: string, requestId: string) =>
    this.request('POST', `/api/sessions/${enc(sessionId)}/turns`, Turn, { prompt, request_id: requestId });
  listTurns = (sessionId: string, options: { limit?: number; before?: number | null } = {}) =>
    this.request('GET', `/api/sessions/${enc(sessionId)}/turns${query(options)}`, TurnPage);
  getTurn = (id: string) => this.request('GET', `/api/turns/${enc(id)}`, Turn);
  cancelTurn = (id: string) => this.request('POST', `/api/turns/${enc(id)}/cancel`, Turn);
  /** The project files the turn changed, with unified diffs. */
  turnChanges = (id: string) => this.request('GET', `/api/turns/${enc(id)}/changes`, FileChanges);
  /** What the session's turns changed together (each file from before its first change to its last). */
  sessionChanges = (sessionId: string) =>
    this.request('GET', `/api/sessions/${enc(sessionId)}/changes`, FileChanges);
  /**
   * Restores the project's files to before the turn (undoing it and every later one). Answers 409 `conflict`
   * with `details.paths` when files changed since Cairn recorded them, unless `force`.
   */
  revertTurn = (id: string, options: { force?: boolean } = {}) =>
    this.request('POST', `/api/turns/${enc(id)}/revert`, RevertResult, { force: options.force ?? false });
  turnEvents = async (sessionId: string, turnId: string) =>
    (await this.request('GET', `/api/sessions/${enc(sessionId)}/events?turn_id=${enc(turnId)}`, EventList))
      .events;

  toolCall = (id: string) => this.request('GET', `/api/tool-calls/${enc(id)}`, ToolCallWithResult);
  /** The text a Write call replaced (saved when it overwrote a text file); `not_found` when none was kept. */
  previousContent = (toolCallId: string) => this.text(`/api/tool-calls/${enc(toolCallId)}/previous`);
  /** The session's background tasks (running first, then the newest ended) and its loaded tools. */
  toolRuntime = (sessionId: string) =>
    this.request('GET', `/api/sessions/${enc(sessionId)}/tool-runtime`, ToolRuntimeInfo);
  /** A call's output pieces: the newest without `after`, else those after piece `after`. */
  toolCallOutput = (id: string, after?: number) =>
    this.request('GET', `/api/tool-calls/${enc(id)}/output${query({ after })}`, ToolCallOutput);
  /** Stops a running call with what its scripts started, and answers once it has stopped. */
  cancelToolCall = (id: string) => this.request('POST', `/api/tool-calls/${enc(id)}/cancel`, ToolCall);

  questions = async (sessionId: string) =>
    (await this.request('GET', `/api/sessions/${enc(sessionId)}/questions`, QuestionList)).questions;
  /** For an approval, `remember` also saves an allow or deny rule (with `pattern`, else the suggested one). */
  answer = (questionId: string, request: AnswerQuestionRequest) =>
    this.request('POST', `/api/questions/${enc(questionId)}/answer`, Question, request);

  /** Every rule, or one scope's: a project's (with its sessions'), a session's, or only the global ones. */
  listPermissionRules = async (filter: ListPermissionRulesQuery = {}) =>
    (await this.request('GET', `/api/permission-rules${textQuery(filter)}`, PermissionRuleList)).rules;
  /** Without `project_id` (and `session_id`) the rule is global; a bad pattern answers 400 bad_request. */
  createPermissionRule = (
    input: Partial<CreatePermissionRuleRequest> & Pick<CreatePermissionRuleRequest, 'tool' | 'action'>,
  ) => this.request('POST', '/api/permission-rules', PermissionRule, input);
  updatePermissionRule = (id: string, patch: UpdatePermissionRuleRequest) =>
    this.request('PATCH', `/api/permission-rules/${enc(id)}`, PermissionRule, patch);
  deletePermissionRule = (id: string) => this.request('DELETE', `/api/permission-rules/${enc(id)}`, null);
  /** What the rules (then the mode) would decide for one call, and which rule decided. */
  testPermission = (input: Partial<TestPermissionRequest> & Pick<TestPermissionRequest, 'tool' | 'input'>) =>
    this.request('POST', '/api/permission-rules/test', PermissionDecision, input);

  /** The next request's size against the usable window, and its units (none with `units: false`). */
  context = (sessionId: string, options: { units?: boolean } = {}) =>
    this.request(
      'GET',
      `/api/sessions/${enc(sessionId)}/context${options.units === false ? '?units=false' : ''}`,
      ContextInfo,
    );
  contextVersions = async (sessionId: string) =>
    (await this.request('GET', `/api/sessions/${enc(sessionId)}/context/versions`, ContextVersionList))
      .versions;
  /** What the model saw at one version, newest messages first, a page at a time. */
  contextVersion = (sessionId: string, number: number, options: { limit?: number; before?: number } = {}) =>
    this.request(
      'GET',
      `/api/sessions/${enc(sessionId)}/context/versions/${number}${query(options)}`,
      ContextVersionView,
    );
  /** "Compact now": answers when the new version is written (409 turn_running while a turn runs); aborting the signal cancels it. */
  compactNow = (sessionId: string, request: CompactRequest = {}, signal?: AbortSignal) =>
    this.request(
      'POST',
      `/api/sessions/${enc(sessionId)}/context/compact`,
      CompactResponse,
      request,
      true,
      signal,
    );

  sessionExperiences = async (sessionId: string) =>
    (await this.request('GET', `/api/sessions/${enc(sessionId)}/experiences`, ExperienceList)).experiences;
  addExperience = (sessionId: string, input: CreateExperienceRequest) =>
    this.request('POST', `/api/sessions/${enc(sessionId)}/experiences`, Experience, input);
  /** A session id is needed to move a project experience into a session's scope. */
  updateExperience = (id: string, patch: UpdateExperienceRequest) =>
    this.request('PATCH', `/api/experiences/${enc(id)}`, Experience, patch);
  deleteExperience = (id: string) => this.request('DELETE', `/api/experiences/${enc(id)}`, null);

  listModels = async () => (await this.modelStatus()).models;
  /** The configs plus what the server's environment overrides (whether a key comes from there). */
  modelStatus = () => this.request('GET', '/api/models', ModelList);
  createModel = (input: Partial<CreateModelRequest> & { name: string; model: string }) =>
    this.request('POST', '/api/models', ModelConfig, input);
  updateModel = (id: string, patch: UpdateModelRequest) =>
    this.request('PATCH', `/api/models/${enc(id)}`, ModelConfig, patch);
  deleteModel = (id: string) => this.request('DELETE', `/api/models/${enc(id)}`, null);
  activateModel = (id: string) => this.request('POST', `/api/models/${enc(id)}/activate`, ModelConfig);
  /** Write-only: the key goes to the server's keychain and is never read back. */
  setModelKey = (id: string, key: string) => this.request('PUT', `/api/models/${enc(id)}/key`, null, { key });

  /** Where kernels start: the Cairn server or a Jupyter Server (its token only as has_token). */
  kernelProvider = () => this.request('GET', '/api/kernels/provider', KernelProviderSettings);
  /** Write-only token: an absent or empty one keeps the saved token, clear_token removes it. */
  setKernelProvider = (input: UpdateKernelProviderRequest) =>
    this.request('PUT', '/api/kernels/provider', KernelProviderSettings, input);
  testKernelProvider = (input: UpdateKernelProviderRequest) =>
    this.request('POST', '/api/kernels/provider/test', KernelProviderTestResult, input);

  /** Kernel events of the session from its journal, in pages (after a sequence number). */
  sessionEvents = (sessionId: string, after: number, limit = 10_000, typePrefix?: string) =>
    this.request(
      'GET',
      `/api/sessions/${enc(sessionId)}/events?after=${after}&limit=${limit}${typePrefix ? `&type_prefix=${enc(typePrefix)}` : ''}`,
      EventList,
    );

  listKernels = async (sessionId: string) =>
    (await this.request('GET', `/api/sessions/${enc(sessionId)}/kernels`, KernelList)).kernels;
  /** Queues a cell (202); its output arrives as `kernel.*` events on the session's journal. */
  executeCell = async (sessionId: string, kernel: string, code: string) =>
    (
      await this.request('POST', this.kernelPath(sessionId, kernel, 'execute'), KernelExecuteAccepted, {
        code,
      })
    ).kernel;
  replyInput = (sessionId: string, kernel: string, requestId: string, value: string) =>
    this.request('POST', this.kernelPath(sessionId, kernel, 'input'), null, { request_id: requestId, value });
  interruptKernel = async (sessionId: string, kernel: string) =>
    (await this.request('POST', this.kernelPath(sessionId, kernel, 'interrupt'), KernelInterruptResult))
      .interrupted;
  restartKernel = async (sessionId: string, kernel: string) =>
    (await this.request('POST', this.kernelPath(sessionId, kernel, 'restart'), KernelExecuteAccepted)).kernel;
  kernelVariables = async (sessionId: string, kernel: string) =>
    (await this.request('GET', this.kernelPath(sessionId, kernel, 'variables'), KernelVariableList))
      .variables;
  /** The kernel's history as an .ipynb file (fetched with the token in a header, never in the URL). */
  notebookBlob = (sessionId: string, kernel: string) =>
    this.blob(this.kernelPath(sessionId, kernel, 'notebook'));
  /** A saved rich output (an image…), to show from memory through an object URL. */
  artifactBlob = (id: string) => this.blob(`/api/artifacts/${enc(id)}`);

  listMcpServers = async () => (await this.request('GET', '/api/mcp/servers', McpServerList)).servers;
  /** A new MCP server; it starts disabled. Secret values go separately, through setMcpSecrets. */
  createMcpServer = (input: CreateMcpServerRequest) =>
    this.request('POST', '/api/mcp/servers', McpServer, input);
  /** One server's config and login state (redirect_uri, authorization_url, logged_in). */
  getMcpServer = (id: string) => this.request('GET', `/api/mcp/servers/${enc(id)}`, McpServer);
  updateMcpServer = (id: string, patch: UpdateMcpServerRequest) =>
    this.request('PATCH', `/api/mcp/servers/${enc(id)}`, McpServer, patch);
  deleteMcpServer = (id: string) => this.request('DELETE', `/api/mcp/servers/${enc(id)}`, null);
  /** Write-only: a string sets a secret in the server's keychain, null removes it. */
  setMcpSecrets = (id: string, secrets: SetMcpSecretsRequest) =>
    this.request('PUT', `/api/mcp/servers/${enc(id)}/secrets`, McpServer, secrets);
  /** Starts an OAuth login to the server outside a session (or gives the one waiting): open the URL. */
  authorizeMcpServer = (id: string) =>
    this.request('POST', `/api/mcp/servers/${enc(id)}/authorize`, McpAuthorizeResult);
  /** Log out: forgets the server's OAuth tokens. */
  logoutMcpServer = (id: string) =>
    this.request('DELETE', `/api/mcp/servers/${enc(id)}/authorization`, McpServer);
  /** Starts or connects, runs initialize and tools/list only. */
  testMcpServer = (id: string) => this.request('POST', `/api/mcp/servers/${enc(id)}/test`, McpTestResult);
  /** Reads another app's config and previews it (no `confirm`). */
  previewMcpImport = (input: Omit<McpImportRequest, 'confirm'>) =>
    this.request('POST', '/api/mcp/import', McpImportPreview, input);
  /** Imports the servers `confirm` names, with the answers to their placeholders. */
  confirmMcpImport = (input: McpImportRequest & { confirm: NonNullable<McpImportRequest['confirm']> }) =>
    this.request('POST', '/api/mcp/import', McpImportResult, input);
  sessionMcp = (sessionId: string) =>
    this.request('GET', `/api/sessions/${enc(sessionId)}/mcp`, McpSessionStatus);
  /** The current configuration is loaded before the session's next message. */
  resetSessionMcp = (sessionId: string) =>
    this.request('POST', `/api/sessions/${enc(sessionId)}/mcp/reset`, McpSessionStatus);
  /** The images, audio and resources an MCP call returned (its mcp_result.json), fetched with the token. */
  mcpResultBlob = (toolCallId: string) => this.blob(`/api/tool-calls/${enc(toolCallId)}/mcp-result`);

  private kernelPath(sessionId: string, kernel: string, action: string): string {
    return `/api/sessions/${enc(sessionId)}/kernels/${enc(kernel)}/${action}`;
  }

  private async text(path: string): Promise<string> {
    const response = await this.send('GET', path, undefined, true);
    const text = await response.text();
    if (!response.ok) await this.fail(response, 'GET', path, text);
    return text;
  }

  private async blob(path: string): Promise<Blob> {
    const response = await this.send('GET', path, undefined, true);
    if (!response.ok) await this.fail(response, 'GET', path, await response.text());
    return response.blob();
  }

  private async request<S extends z.ZodMiniType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    auth?: boolean,
    signal?: AbortSignal,
  ): Promise<z.infer<S>>;
  private async request(
    method: string,
    path: string,
    schema: null,
    body?: unknown,
    auth?: boolean,
  ): Promise<void>;
  private async request(
    method: string,
    path: string,
    schema: z.ZodMiniType | null,
    body?: unknown,
    auth = true,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const response = await this.send(method, path, body, auth, signal);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw new ApiError(0, 'cancelled', `${method} ${path} was cancelled.`);
      throw error;
    }
    if (!response.ok) await this.fail(response, method, path, text);
    let json: unknown = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        throw new ApiError(response.status, 'not_cairn', `${this.base} did not answer like a Cairn server.`);
      }
    }
    if (schema === null) return undefined;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      // The field's path says what was wrong even where zod has no English messages (the renderer loads none).
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new ApiError(
        response.status,
        'bad_response',
        `Unexpected answer from ${path}: ${where}${issue?.message}`,
      );
    }
    return parsed.data;
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    auth: boolean,
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Bearer ${this.backend.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // A redirect must never carry the token elsewhere.
        redirect: 'error',
        credentials: 'omit',
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw new ApiError(0, 'cancelled', `${method} ${path} was cancelled.`);
      if (await this.wasRedirected(error, path)) {
        throw new ApiError(
          0,
          'redirect',
          `The server at ${this.base} answered with a redirect. Cairn never follows redirects, so the token cannot be sent to another address: enter the server's final address instead.`,
        );
      }
      throw new ApiError(
        0,
        'network',
        `Cannot reach the Cairn server at ${this.base}: ${fetchFailure(error)}`,
      );
    }
  }

  /** Throws the API's error for a failed answer (its stable code when it sent one). */
  private async fail(response: Response, method: string, path: string, text: string): Promise<never> {
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new ApiError(response.status, 'not_cairn', `${this.base} did not answer like a Cairn server.`);
    }
    const parsed = ErrorResponse.safeParse(json);
    if (parsed.success)
      throw new ApiError(
        response.status,
        parsed.data.error.code,
        parsed.data.error.message,
        parsed.data.error.details,
      );
    throw new ApiError(
      response.status,
      'http_error',
      `${method} ${path} failed with HTTP ${response.status}.`,
    );
  }

  /**
   * Whether a failed request failed because the answer was a redirect. Node's fetch says so in the
   * error's cause; a browser only says "Failed to fetch", so ask again without the token and with
   * `redirect: 'manual'`, which reports a redirect without following it.
   */
  private async wasRedirected(error: unknown, path: string): Promise<boolean> {
    const cause = (error as { cause?: { message?: unknown } } | null)?.cause?.message;
    if (typeof cause === 'string' && /redirect/i.test(cause)) return true;
    try {
      const answer = await this.fetchImpl(`${this.base}${path}`, {
        method: 'GET',
        redirect: 'manual',
        credentials: 'omit',
      });
      return answer.type === 'opaqueredirect' || (answer.status >= 300 && answer.status < 400);
    } catch {
      return false;
    }
  }
}

const enc = encodeURIComponent;

/** Node's fetch says only "fetch failed"; its cause says why (refused, a certificate, a reset). */
function fetchFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause?.message;
  return typeof cause === 'string' && cause !== message ? `${message} (${cause})` : message;
}

/** `?name=value&…` of the text options that are set. */
function textQuery(options: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) if (value !== undefined) search.set(name, value);
  return search.size > 0 ? `?${search}` : '';
}

/** `?name=value&…` of the options that are set, in their order; empty when none is. */
function query(options: Record<string, number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  return search.size > 0 ? `?${search}` : '';
}
