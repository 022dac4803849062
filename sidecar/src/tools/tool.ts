import { z } from 'zod';

/** What a tool gets when it runs. */
export interface ToolContext {
  /** The project's folder, already resolved with realpath; null for a conversation without a project. */
  projectRoot: string | null;
  sessionId: string;
  toolCallId: string;
  /** Folder holding this session's tool-call results; `Read` may read files inside it. */
  sessionResultsDir: string;
  /** Aborted when the turn is cancelled: stop work and kill every process started. */
  signal: AbortSignal;
  /** Streams live output (stdout/stderr of a process) to the client. */
  onOutput(stream: 'stdout' | 'stderr', text: string): void;
  /**
   * Called when the tool has started a process (its pid, which on POSIX leads its own process group), so
   * that what a crash of the sidecar leaves running can be stopped on the next start.
   */
  onProcessStarted?(pid: number): void;
  /** Asks the user a question and waits for the answer (AskUserQuestion). */
  ask(question: string, options: string[] | null): Promise<string>;
}

export interface ToolResult {
  content: string;
  isError?: boolean;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  /** Tools with side effects wait for approval in `ask` mode. */
  sideEffects: boolean;
  /** Shell and file tools exist only in sessions with a project. */
  needsProject: boolean;
  /** The input schema as JSON, for tools that come with one (MCP); inputSchema then only checks the shape. */
  jsonSchema?: Record<string, unknown>;
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

/** The JSON schema the model sees for a tool's input. */
export function toolInputJsonSchema(tool: Tool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  const schema = z.toJSONSchema(tool.inputSchema, { target: 'draft-7' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
