import type { ToolMethodInfo } from '../../../protocol';
import { ToolError } from '../../tool';
import type { WorkerToolDescription } from './worker-protocol';

/** What tool names and method names must match: the model's tool names allow no more. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** The longest description kept (as for MCP tools). */
const MAX_DESCRIPTION_CHARS = 4000;

export interface MethodDescription extends ToolMethodInfo {
  /** A JSON schema of the method's arguments, when the module gives one. */
  inputSchema: Record<string, unknown> | null;
}

/** A loaded tool that may be offered to the model. */
export interface ToolDescription {
  name: string;
  description: string;
  methods: MethodDescription[];
}

export type ToolLanguage = 'javascript' | 'python';

/**
 * Checks what the worker found against what a tool must be, and throws one ToolError naming every problem
 * and the shape expected (in the module's own language).
 */
export function validateToolDescription(
  raw: WorkerToolDescription,
  context: { path: string; factory: string; language: ToolLanguage },
): ToolDescription {
  const problems: string[] = [];
  if (raw.name === null || raw.name === '') problems.push('it has no "name"');
  else if (!TOOL_NAME_PATTERN.test(raw.name)) {
    problems.push(`its name "${raw.name.slice(0, 80)}" must be 1-64 letters, digits, "_" or "-"`);
  }
  if (raw.methods.length === 0) problems.push('it has no methods');
  const methods: MethodDescription[] = [];
  for (const method of raw.methods) {
    const label = `method "${method.name.slice(0, 80)}"`;
    if (!TOOL_NAME_PATTERN.test(method.name)) {
      problems.push(`the ${label} needs a name of 1-64 letters, digits, "_" or "-"`);
    }
    if (method.kind !== 'batch' && method.kind !== 'stream') {
      problems.push(
        `the ${label} has kind ${method.kind === null ? '(none)' : `"${method.kind}"`}; it must be "batch" or "stream"`,
      );
    }
    if (!method.runnable) problems.push(`the ${label} has no "run" function`);
    methods.push({
      name: method.name,
      kind: method.kind === 'stream' ? 'stream' : 'batch',
      description: (method.description ?? '').slice(0, MAX_DESCRIPTION_CHARS),
      inputSchema: isObject(method.input_schema) ? method.input_schema : null,
    });
  }
  if (problems.length > 0) {
    throw new ToolError(
      `The tool in ${context.path} cannot be used: ${problems.join('; ')}. ${expectedShape(context.factory, context.language)}`,
    );
  }
  return {
    name: raw.name!,
    description: (raw.description ?? '').slice(0, MAX_DESCRIPTION_CHARS),
    methods,
  };
}

/** The shape a factory must return, as the module's language writes it. */
export function expectedShape(factory: string, language: ToolLanguage): string {
  return language === 'python'
    ? `${factory}(config) must return {"name": ..., "description": ..., "methods": {"<method>": {"kind": "batch" or "stream", "description": ..., "run": fn(args, ctx)}}}.`
    : `${factory}(config) must return { name, description, methods: { <method>: { kind: 'batch' | 'stream', description, run(args, ctx) } } }.`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
