import { z } from 'zod';
import type { Tool, ToolContext } from '../tools/tool';
import { toMessage } from './history-validation';
import type { MemoryEdits } from './memory-edits';
import { methodArguments, methodEnvelope } from './method-envelope';

const METHODS = [
  'count',
  'all',
  'get',
  'append',
  'insert',
  'update',
  'delete',
  'replace',
  'clear',
  'get_system_prompt',
  'set_system_prompt',
  'append_system_prompt',
] as const;

const inputSchema = methodEnvelope(METHODS);

const Index = z.object({ index: z.number().int() });
const WithMessage = z.object({ message: z.unknown().refine((m) => m !== undefined, 'message is required') });
const IndexAndMessage = Index.extend(WithMessage.shape);
const Messages = z.object({ messages: z.array(z.unknown()) });
const Text = z.object({ text: z.string() });

const PENDING_NOTE = 'applied as a new context version after this batch';

const DESCRIPTION = [
  'Your own working history and system prompt addition (runtime.selfref.memory), for scripts. {"method": M, "arguments": {...}}:',
  '- count; all; get {"index"}: the messages as you saw them in your latest request, before the round running now.',
  '- append {"message"}; insert {"index", "message"}; update {"index", "message"}; delete {"index"}; replace {"messages"}; clear: edit them. A message is {"role": "user"|"assistant", "content": str | [blocks]}; indexes are Python-style.',
  '- get_system_prompt; set_system_prompt {"text"}; append_system_prompt {"text"}: your session\'s own addition to the system prompt.',
  'Each edit must leave a valid history (a user message first, each tool_use answered by a tool_result in the next message); replace makes compound changes. Edits are applied as one new context version after the batch; the raw history is never changed.',
].join('\n');

/** The memory handle's tool: scripts read and edit the session's working history, applied after the batch. */
export function memoryTool(edits: MemoryEdits): Tool<typeof inputSchema> {
  return {
    name: 'Memory',
    description: DESCRIPTION,
    inputSchema,
    sideEffects: false,
    needsProject: false,
    scriptOnly: true,
    methods: METHODS.map((name) => ({ name, kind: 'batch' as const, description: `Memory ${name}` })),
    async execute(input, ctx: ToolContext) {
      const args = input.arguments ?? {};
      const session = ctx.sessionId;
      const answer = (value: unknown) => ({ content: JSON.stringify(value) });
      const pending = (count: number) => answer({ count, pending: true, note: PENDING_NOTE });
      const prompt = (text: string) => answer({ system_prompt: text, pending: true });
      switch (input.method) {
        case 'count':
          return answer({ count: edits.count(session) });
        case 'all':
          return answer({ messages: edits.all(session) });
        case 'get':
          return answer({ message: edits.get(session, parse(Index, args, 'get').index) });
        case 'append':
          return pending(edits.append(session, toMessage(parse(WithMessage, args, 'append').message)));
        case 'insert': {
          const parsed = parse(IndexAndMessage, args, 'insert');
          return pending(edits.insert(session, parsed.index, toMessage(parsed.message)));
        }
        case 'update': {
          const parsed = parse(IndexAndMessage, args, 'update');
          return pending(edits.update(session, parsed.index, toMessage(parsed.message)));
        }
        case 'delete':
          return pending(edits.delete(session, parse(Index, args, 'delete').index));
        case 'replace': {
          const list = parse(Messages, args, 'replace').messages;
          return pending(
            edits.replace(
              session,
              list.map((m, i) => toMessage(m, `message ${i}`)),
            ),
          );
        }
        case 'clear':
          return pending(edits.clear(session));
        case 'get_system_prompt':
          return answer({ system_prompt: edits.systemPrompt(session) });
        case 'set_system_prompt':
          return prompt(edits.setSystemPrompt(session, parse(Text, args, 'set_system_prompt').text));
        case 'append_system_prompt':
          return prompt(edits.appendSystemPrompt(session, parse(Text, args, 'append_system_prompt').text));
      }
    },
  };
}

const parse = <S extends z.ZodType>(schema: S, value: unknown, method: string): z.infer<S> =>
  methodArguments(schema, value, 'Memory', method);
