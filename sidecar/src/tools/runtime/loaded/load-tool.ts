import { z } from 'zod';
import { requireProjectRoot } from '../../path-guard';
import { defineTool, type Tool } from '../../tool';
import type { LoadedToolHandle } from './loaded-tool-handle';
import { DEFAULT_FACTORY, type ToolLoader } from './tool-loader';

/** A session's loaded tools, as LoadTool needs them. */
export interface LoadedToolRegistry {
  /** Whether a tool of this name is already offered (a crashed loaded tool's name should count as free). */
  taken(name: string): boolean;
  /** Adds the tool to the session's tools from its next request; the registry stops it when it goes. */
  register(handle: LoadedToolHandle): void;
}

const inputSchema = z.object({
  path: z
    .string()
    .min(1, 'path is required')
    .describe('A .js/.mjs/.cjs, .ts/.mts or .py file of the project.'),
  factory: z.string().optional().describe(`The function that returns the tool (default ${DEFAULT_FACTORY}).`),
  config: z.record(z.string(), z.unknown()).optional().describe('Passed to the factory.'),
  mode: z
    .enum(['process', 'local'])
    .optional()
    .describe('process (default): its own worker process; local: inside Cairn (JavaScript only).'),
});

/**
 * LoadTool: loads a tool from a file of the project, for use from the agent's next request. It runs the
 * project's code, so it waits for approval in `ask` mode.
 */
export function loadToolTool(loader: ToolLoader, registry: LoadedToolRegistry): Tool {
  return defineTool({
    name: 'LoadTool',
    description:
      'Loads a tool from a module of the project, usable from your next request. The module (JavaScript, ' +
      `TypeScript or Python) has ${DEFAULT_FACTORY}(config) returning {name, description, methods: {<m>: ` +
      '{kind: "batch"|"stream", description, run(args, ctx)}}} (ToolControl guide has more). Call the tool ' +
      'with {"method", "arguments", "union_id"?}; a stream method always runs in the background.',
    inputSchema,
    sideEffects: true,
    needsProject: true,
    // In the sidecar, the tool's code can reach what Cairn can: the user says so each time, in any mode.
    // (A Python module is refused `local` before it runs, so it is not asked about.)
    privileged: (input) => {
      const { mode, path } = (input ?? {}) as { mode?: unknown; path?: unknown };
      if (mode !== 'local' || (typeof path === 'string' && /\.py$/i.test(path))) return null;
      return (
        'It runs the module inside Cairn\'s own process (mode "local"), where its code can reach what Cairn ' +
        "can: Cairn's environment, its keychain entries and every session."
      );
    },
    async execute(input, ctx) {
      const projectRoot = requireProjectRoot(ctx);
      const handle = await loader.load(
        input,
        {
          projectRoot,
          sessionId: ctx.sessionId,
          toolCallId: ctx.toolCallId,
          signal: ctx.signal,
          sandbox: ctx.sandbox ?? null,
        },
        (name) => registry.taken(name),
      );
      try {
        registry.register(handle);
      } catch (err) {
        await handle.stop();
        throw err;
      }
      const info = handle.info();
      const where = info.mode === 'local' ? 'inside Cairn' : `in a worker process (pid ${info.pid})`;
      const methods = info.methods.map(
        (method) =>
          `- ${method.name} (${method.kind === 'stream' ? 'stream, always runs in the background' : 'batch'})` +
          `${method.description ? `: ${method.description}` : ''}`,
      );
      const example = info.methods[0]?.name ?? 'method';
      return {
        content: [
          `Loaded the tool "${info.name}" from ${info.path} (${info.language}, ${where}).`,
          'Methods:',
          ...methods,
          `You can use it from your next request: call ${info.name} with ` +
            `{"method": "${example}", "arguments": {...}}.`,
        ].join('\n'),
        meta: { loaded_tool: info },
      };
    },
  });
}
