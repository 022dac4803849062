import { z } from 'zod';
import { CairnError } from '../errors';
import {
  CompactionLevel,
  type Experience,
  ExperienceScope,
  type StructuredSummary,
  SUMMARY_FIELDS,
} from '../protocol';
import type { Tool, ToolContext } from '../tools/tool';
import type { QueuedCompaction } from './compaction-queue';
import { methodArguments, methodEnvelope } from './method-envelope';
import { normalizeSummary } from './summary-format';

/** What the Context tool asks of the application: the session's context, its versions and its memory. */
export interface ContextToolPort {
  inspect(sessionId: string): Promise<unknown>;
  /** Checks the request now (a bad ref is an error at once) and queues it. */
  queue(sessionId: string, compaction: QueuedCompaction): { queued: number };
  versions(sessionId: string): unknown;
  read(sessionId: string, version: number, before: number | undefined): unknown;
  remember(sessionId: string, text: string, scope: ExperienceScope): Experience;
  forget(sessionId: string, id: string): void;
}

const METHODS = ['inspect', 'compact', 'versions', 'read', 'remember', 'forget'] as const;

const inputSchema = methodEnvelope(METHODS);

const CompactArguments = z.object({
  ref: z.string().optional(),
  level: z.union([CompactionLevel, z.literal('auto')]).optional(),
});
const ReadArguments = z.object({
  version: z.number().int().min(1),
  before: z.number().int().min(0).optional(),
});
const RememberArguments = z.object({
  text: z.string().trim().min(1, 'text is required').max(4000),
  scope: z.optional(ExperienceScope),
});
const ForgetArguments = z.object({ id: z.string().min(1, 'id is required') });

const DESCRIPTION = [
  'Manage your own context. {"method": M, "arguments": {...}}:',
  '- inspect: the context version, its estimated tokens against the usable window and the compaction threshold, its units (ref, level, tokens), your experiences, and whether a compaction is pending.',
  '- compact {"ref"?, "level"?: "block"|"loop"|"turn"|"session"|"auto"}: compact a unit (by ref) or the context at a level. block replaces a tool result or long text by a stub naming the file that holds it (Read brings it back); loop, turn and session replace rounds, a past turn, or everything before the current round by a summary. Add the summary fields yourself to skip the summary call: ' +
    `${SUMMARY_FIELDS.join(', ')} (goal, instruction and current_status text; the others lists of text). ` +
    'It is applied after every result of this batch, before your next request; the raw history is never lost.',
  '- versions: the context versions; read {"version": N, "before"?}: what you saw at a version, newest messages first, paged.',
  '- remember {"text", "scope"?: "session"|"project"}: keep a short fact or lesson in your experiences (shown at the end of the system prompt, kept through every compaction); forget {"id"}: remove one.',
].join('\n');

/** The agent's tool for its own context: inspect, compact, look back, remember. It never needs approval. */
export function contextTool(port: ContextToolPort): Tool<typeof inputSchema> {
  return {
    name: 'Context',
    description: DESCRIPTION,
    inputSchema,
    sideEffects: false,
    needsProject: false,
    methods: METHODS.map((name) => ({ name, kind: 'batch' as const, description: `Context ${name}` })),
    async execute(input, ctx: ToolContext) {
      const args = input.arguments ?? {};
      const answer = (value: unknown) => ({ content: JSON.stringify(value, null, 1) });
      switch (input.method) {
        case 'inspect':
          return answer(await port.inspect(ctx.sessionId));
        case 'compact': {
          const parsed = parse(CompactArguments, args, 'compact');
          const given = givenSummary(args);
          const compaction: QueuedCompaction = {
            level: parsed.level ?? (given ? 'session' : 'auto'),
            ...(parsed.ref ? { ref: parsed.ref } : {}),
            ...(given ? { given } : {}),
          };
          const { queued } = port.queue(ctx.sessionId, compaction);
          return answer({
            status: 'queued',
            level: compaction.level,
            ...(parsed.ref ? { ref: parsed.ref } : {}),
            // A Block compaction replaces results by stubs: no summary is written.
            summary_call: !given && compaction.level !== 'block',
            queued,
            note: 'Applied after every tool result of this batch is written, before your next request.',
          });
        }
        case 'versions':
          return answer(port.versions(ctx.sessionId));
        case 'read': {
          const parsed = parse(ReadArguments, args, 'read');
          return answer(port.read(ctx.sessionId, parsed.version, parsed.before));
        }
        case 'remember': {
          const parsed = parse(RememberArguments, args, 'remember');
          return answer(port.remember(ctx.sessionId, parsed.text, parsed.scope ?? 'session'));
        }
        case 'forget': {
          const parsed = parse(ForgetArguments, args, 'forget');
          port.forget(ctx.sessionId, parsed.id);
          return answer({ forgotten: parsed.id });
        }
      }
    },
  };
}

/** The summary fields the agent gave, if it gave any. */
function givenSummary(args: Record<string, unknown>): StructuredSummary | undefined {
  if (!SUMMARY_FIELDS.some((field) => args[field] !== undefined)) return undefined;
  const summary = normalizeSummary(args);
  if (!summary) throw new CairnError('bad_request', 'The summary fields given are all empty.');
  return summary;
}

const parse = <S extends z.ZodType>(schema: S, value: unknown, method: string): z.infer<S> =>
  methodArguments(schema, value, 'Context', method);
