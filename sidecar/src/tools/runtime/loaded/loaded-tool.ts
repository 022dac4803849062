import { z } from 'zod';
import type { LoadedToolMode } from '../../../protocol';
import { defineTool, type Tool, type ToolContext, ToolError, type ToolResult } from '../../tool';
import type { MethodDescription, ToolDescription, ToolLanguage } from './tool-description';

/** The envelope every loaded tool is called with; its JSON schema for the model is built per tool. */
const Envelope = z.looseObject({
  method: z.string().min(1, 'method is required'),
  union_id: z.string().optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
type Envelope = z.infer<typeof Envelope>;

/** Top-level keys besides the envelope's that are the runtime's own (taken off by the runner). */
const RUNTIME_KEYS = new Set(['method', 'union_id', 'arguments', 'is_wait', 'timeout']);

/** One validated call of a method, for the worker. */
export interface MethodInvocation {
  method: MethodDescription;
  arguments: Record<string, unknown>;
  /** As the caller gave it; the tool decides what it means. */
  unionId: string | null;
}

export interface LoadedToolSpec {
  description: ToolDescription;
  /** The module's path inside the project, as messages show it. */
  path: string;
  language: ToolLanguage;
  mode: LoadedToolMode;
}

/**
 * The Tool the model and scripts call for a loaded tool: the envelope `{method, union_id?, arguments}`,
 * checked here (a known method; `arguments` an object holding the keys its schema requires) before
 * `invoke` runs it. Runs the project's code, so it has side effects; stream methods run in the background
 * (the runner does that from `methods`).
 */
export function createLoadedTool(
  spec: LoadedToolSpec,
  invoke: (call: MethodInvocation, ctx: ToolContext) => Promise<ToolResult>,
): Tool {
  const { description } = spec;
  const methods = new Map(description.methods.map((method) => [method.name, method]));
  return defineTool({
    name: description.name,
    description: toolDescriptionText(spec),
    inputSchema: Envelope,
    jsonSchema: envelopeJsonSchema(description),
    sideEffects: true,
    needsProject: true,
    background: 'runner',
    methods: description.methods.map(({ name, kind, description: text }) => ({
      name,
      kind,
      description: text,
    })),
    async execute(input: Envelope, ctx) {
      const method = methods.get(input.method);
      if (!method) {
        throw new ToolError(
          `The tool "${description.name}" has no method "${input.method}"; its methods: ${methodList(description)}.`,
        );
      }
      const stray = Object.keys(input).filter((key) => !RUNTIME_KEYS.has(key));
      if (stray.length > 0) {
        throw new ToolError(
          `Put the method's arguments inside "arguments", e.g. {"method": "${method.name}", "arguments": ` +
            `{"${stray[0]}": ...}}; not understood at the top level: ${stray.join(', ')}.`,
        );
      }
      const args = input.arguments ?? {};
      const missing = requiredKeys(method).filter((key) => !(key in args));
      if (missing.length > 0) {
        throw new ToolError(
          `${description.name}.${method.name} needs the argument${missing.length === 1 ? '' : 's'} ` +
            `${missing.join(', ')} in "arguments".`,
        );
      }
      return invoke({ method, arguments: args, unionId: input.union_id ?? null }, ctx);
    },
  });
}

function toolDescriptionText(spec: LoadedToolSpec): string {
  const { description } = spec;
  const where = spec.mode === 'local' ? 'inside Cairn' : 'in a worker process';
  const lines = description.methods.map((method) => {
    const kind =
      method.kind === 'stream'
        ? 'stream: always runs in the background, its items arrive in its output, a line each'
        : 'batch';
    const args = method.inputSchema ? ` Arguments: ${JSON.stringify(method.inputSchema)}` : '';
    return `- ${method.name} (${kind}): ${method.description}${args}`;
  });
  return [
    description.description || `A tool loaded from ${spec.path}.`,
    '',
    `Loaded with LoadTool from ${spec.path} (${spec.language}, ${where}). Call it with ` +
      '{"method": ..., "arguments": {...}}. Methods:',
    ...lines,
  ].join('\n');
}

function envelopeJsonSchema(description: ToolDescription): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      method: {
        type: 'string',
        enum: description.methods.map((method) => method.name),
        description: 'The method to run (see the methods in the description).',
      },
      union_id: {
        type: 'string',
        description: 'Optional; passed to the tool as given (the tool decides what it means).',
      },
      arguments: { type: 'object', description: "The method's arguments." },
    },
    required: ['method', 'arguments'],
    additionalProperties: false,
  };
}

function methodList(description: ToolDescription): string {
  return description.methods.map((method) => `${method.name} (${method.kind})`).join(', ');
}

function requiredKeys(method: MethodDescription): string[] {
  const required = method.inputSchema?.required;
  return Array.isArray(required) ? required.filter((key): key is string => typeof key === 'string') : [];
}
