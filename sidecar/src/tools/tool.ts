import { z } from 'zod';
import type { SandboxSpec } from '../process/sandbox';
import type { ElicitationAction, ElicitationContent, ElicitationInfo, ToolMethodInfo } from '../protocol';

/**
 * How a child process a tool starts reaches Cairn's tool runtime: the endpoint and this call's token
 * (valid for its session while the call runs), and the folder of the `cairn_tools` Python client.
 */
export interface ScriptAccess {
  /** `http://127.0.0.1:PORT` or `unix:PATH`. */
  endpoint: string;
  token: string;
  /** The environment for a child: `base` with CAIRN_TOOL_ENDPOINT, CAIRN_TOOL_TOKEN, and `cairn_tools` and `cairn` findable. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/** What a tool gets when it runs. */
export interface ToolContext {
  /** The project's folder, already resolved with realpath; null for a conversation without a project. */
  projectRoot: string | null;
  sessionId: string;
  /** The turn the call belongs to (a script's call: its parent call's turn). */
  turnId: string;
  toolCallId: string;
  /** Folder holding this session's tool-call results; `Read` may read files inside it. */
  sessionResultsDir: string;
  /**
   * Results folders of other sessions this call may read (a fork: its parent's, since the stubs of the
   * context it started from name files there). Absent: none.
   */
  inheritedResultsDirs?: readonly string[];
  /** This call's own folder (status.json, result.txt, its output pieces). */
  callDir: string;
  /**
   * Where Write keeps the text it replaced, for its card's diff: a folder of the session that no process
   * the call starts can reach (absent: nothing is kept).
   */
  replacedTextDir?: string;
  /**
   * Aborted when the call is cancelled (its turn's cancel for a waited call, ToolControl cancel, its
   * parent script's end): stop work and kill every process started.
   */
  signal: AbortSignal;
  /** The call runs in the background: it has no time limit unless its input gives one. */
  background: boolean;
  /** Streams live output (stdout/stderr of a process) to the client, and into the call's output pieces. */
  onOutput(stream: 'stdout' | 'stderr', text: string): void;
  /** Adds text to the call's output pieces only (output the journal already has, such as a kernel's). */
  writePiece(text: string): void;
  /**
   * Reports how far the call has got (an MCP server's progress), for its card: journaled a few times a
   * second at most, the last always. Absent where nothing shows it.
   */
  onProgress?(progress: ToolProgress): void;
  /** For tools whose processes may call tools (`scripts`): how they reach the runtime; null when they cannot. */
  scriptAccess: ScriptAccess | null;
  /**
   * The sandbox the processes this call starts run in (its project's sandbox is on), or null/absent for none.
   * A tool that starts processes wraps them with `sandboxCommand` (process/sandbox), which refuses when the
   * sandbox cannot run rather than run them unconfined.
   */
  sandbox?: SandboxSpec | null;
  /** The calls whose scripts led to this one, nearest first (empty for the model's own calls). */
  ancestors: readonly { name: string; input: unknown }[];
  /**
   * Called when the tool has started a process (its pid, which on POSIX leads its own process group), so
   * that what a crash of the sidecar leaves running can be stopped on the next start.
   */
  onProcessStarted?(pid: number): void;
  /** Asks the user a question and waits for the answer (AskUserQuestion). */
  ask(question: string, options: string[] | null): Promise<string>;
  /**
   * Asks the user to fill an MCP server's form (elicitation) and waits; `signal` ends the wait (the
   * question is then closed). Absent where no one can answer.
   */
  elicit?(
    message: string,
    elicitation: ElicitationInfo,
    signal: AbortSignal,
  ): Promise<{ action: ElicitationAction; content: ElicitationContent | null }>;
}

/** How far a running call has got: `total` when the tool knows what `progress` counts towards. */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

export interface ToolResult {
  content: string;
  isError?: boolean;
  /** The exit code of the process the call ran, when it ran one to its end. */
  exitCode?: number | null;
  /** What the call's status.json and ToolControl status show besides the text. */
  meta?: Record<string, unknown>;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  /** Tools with side effects obey the session's approval mode (rules decide first). */
  sideEffects: boolean;
  /** Shell and file tools exist only in sessions with a project. */
  needsProject: boolean;
  /** The input schema as JSON, for tools that come with one (MCP); inputSchema then only checks the shape. */
  jsonSchema?: Record<string, unknown>;
  /**
   * Whether the tool accepts `"is_wait": false` (run on in the background after a receipt), and who keeps
   * a background call's `timeout`: `tool` reads its own `timeout` input and `ctx.background`; `runner` has
   * the runtime take `timeout` (seconds) off the input and stop the call when it passes. Absent: never.
   */
  background?: 'tool' | 'runner';
  /** Its processes may call tools back (Bash, Exec, execute_code): each call gets a token of its own. */
  scripts?: boolean;
  /**
   * For an input that gets more than a child process would (code run inside Cairn itself): a sentence
   * saying so, and the call then asks the user even in `auto` mode. Null: the session's mode decides.
   */
  privileged?(input: unknown): string | null;
  /**
   * A tool with several methods is called with the envelope `{"method", "union_id"?, "arguments",
   * "is_wait"?}`; a `stream` method always runs in the background. Absent: flat inputs.
   */
  methods?: ToolMethodInfo[];
  /**
   * Offered to the agent's scripts only (the kernel's `runtime`), never to the model as a tool: the model
   * cannot call it by name either.
   */
  scriptOnly?: boolean;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** A failure the model should see as an error result (bad path, no match, ...). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** The JSON schema the model sees for a tool's input, with the runtime's own fields where the tool takes them. */
export function toolInputJsonSchema(tool: Tool): Record<string, unknown> {
  const schema = tool.jsonSchema
    ? structuredClone(tool.jsonSchema)
    : (z.toJSONSchema(tool.inputSchema, { target: 'draft-7' }) as Record<string, unknown>);
  delete schema.$schema;
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  // A tool's own `is_wait` (an MCP tool may have one) is its own: then it cannot run in the background.
  if (!tool.background || 'is_wait' in properties) return schema;
  properties.is_wait = {
    type: 'boolean',
    description: 'false: run in the background, answer a receipt at once (see ToolControl).',
  };
  if (tool.background === 'runner' && !('timeout' in properties)) {
    properties.timeout = { type: 'number', description: 'Seconds before a background call is stopped.' };
  }
  return { ...schema, type: 'object', properties };
}
