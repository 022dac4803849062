import { z } from 'zod';
import type { LoadedTool } from '../../protocol';
import { defineTool, type Tool, ToolError } from '../tool';
import type { CallInspector } from './call-inspector';
import { GUIDE_TOPICS, toolGuide } from './tool-guide';

const inputSchema = z.object({
  action: z.enum(['status', 'output', 'cancel', 'list', 'guide']),
  call_id: z.string().min(1).optional(),
  after: z.number().int().min(-1).optional().describe('output: a piece number (next_after).'),
  topic: z.string().optional().describe(GUIDE_TOPICS.join(', ')),
});

/** What ToolControl needs of the session's runtime besides its calls: the tools loaded into it. */
export interface ToolControlPort {
  inspector: CallInspector;
  loadedTools(sessionId: string): LoadedTool[];
}

/**
 * The agent's handle on the calls it started: the status of one, its output pieces, cancel, the list of
 * background calls and loaded tools, and the guide to writing scripts that call tools. No approval: it
 * reads and stops only this session's own calls.
 */
export function toolControlTool(port: ToolControlPort): Tool<typeof inputSchema> {
  return defineTool({
    name: 'ToolControl',
    description: [
      'Background calls ("is_wait": false) and scripts. action:',
      'status {call_id}: status, timings, exit code; output {call_id, after?}: newest text, or the pieces after one;',
      'cancel {call_id}: stop it, its process tree and calls its script made; list: background calls, loaded tools;',
      'guide {topic?}: how your scripts call these tools (Python cairn_tools, shell `cairn tool`).',
    ].join('\n'),
    inputSchema,
    sideEffects: false,
    needsProject: false,
    async execute(input, ctx) {
      const { inspector } = port;
      const answer = (value: unknown) => ({ content: JSON.stringify(value, null, 1) });
      const callId = (): string => {
        if (!input.call_id)
          throw new ToolError(`ToolControl ${input.action} needs "call_id" (a receipt's call_id).`);
        return input.call_id;
      };
      switch (input.action) {
        case 'status':
          return answer(inspector.status(ctx.sessionId, callId()));
        case 'output': {
          const output = inspector.output(ctx.sessionId, callId(), input.after);
          return { content: formatOutput(output) };
        }
        case 'cancel': {
          const { call, cancelled } = await inspector.cancel(ctx.sessionId, callId(), ctx.signal);
          return answer({
            call_id: call.id,
            status: call.status,
            ...(cancelled
              ? {}
              : { note: `The call had already ended (${call.status}); nothing was stopped.` }),
          });
        }
        case 'list':
          return answer({
            background_calls: inspector.list(ctx.sessionId).map((c) => inspector.status(ctx.sessionId, c.id)),
            loaded_tools: port.loadedTools(ctx.sessionId).map((t) => ({
              name: t.name,
              methods: t.methods.map((m) => `${m.name} (${m.kind})`),
              language: t.language,
              runs_in:
                t.mode === 'local' ? 'the sidecar' : `a worker process${t.pid ? ` (pid ${t.pid})` : ''}`,
              state: t.state,
              ...(t.error ? { error: t.error } : {}),
            })),
          });
        case 'guide':
          return { content: toolGuide(input.topic) };
      }
    },
  });
}

/** The pieces as text the model reads easily, with where to go on from. */
function formatOutput(output: ReturnType<CallInspector['output']>): string {
  const head = {
    call_id: output.call_id,
    status: output.status,
    running: output.running,
    next_after: output.next_after,
    ...(output.missing > 0 ? { missing: output.missing } : {}),
    pieces: output.pieces.map((p) => p.number),
  };
  const text = output.pieces.map((p) => p.text).join('');
  return `${JSON.stringify(head)}\n${text === '' ? '(no output yet)' : text}`;
}
