import { z } from 'zod';
import { methodArguments, methodEnvelope } from '../context/method-envelope';
import type { ForkStatus } from '../protocol';
import type { Tool, ToolContext } from '../tools/tool';

/** The turn that calls Fork: its forks belong to this session and turn. */
export interface ForkCaller {
  sessionId: string;
  turnId: string;
}

export interface SpawnArguments {
  task: string;
  instruction: string;
  /** The tools the fork gets; absent: the parent's (never Fork). */
  tools?: string[] | undefined;
}

export interface GatherArguments {
  includeHistory: boolean;
  /** Seconds to wait at most; absent: until every fork has ended (or the call is cancelled). */
  timeoutSeconds?: number | undefined;
}

/** One fork as `gather_all` reports it. */
export interface GatheredFork {
  status: ForkStatus;
  response: string | null;
  /** The fork was still queued or running when the wait ran out. */
  timed_out?: true;
  history?: { role: 'user' | 'assistant'; content: unknown }[];
}

/** What the Fork tool asks of the application: spawning, gathering, watching and cancelling forks. */
export interface ForkToolPort {
  /** How many forks of one turn run at once. */
  readonly limit: number;
  spawn(caller: ForkCaller, args: SpawnArguments): { fork_id: string; status: ForkStatus };
  gatherAll(
    caller: ForkCaller,
    args: GatherArguments,
    signal: AbortSignal,
  ): Promise<Record<string, GatheredFork>>;
  status(caller: ForkCaller, forkId: string): unknown;
  cancel(caller: ForkCaller, forkId: string): Promise<unknown>;
}

const METHODS = ['spawn', 'gather_all', 'status', 'cancel'] as const;

const inputSchema = methodEnvelope(METHODS);

const SpawnSchema = z.object({
  task: z.string().trim().min(1, 'task is required').max(200),
  instruction: z.string().trim().min(1, 'instruction is required'),
  tools: z.array(z.string().min(1)).optional(),
});
const GatherSchema = z.object({
  include_history: z.boolean().optional(),
  timeout_s: z.number().positive().optional(),
});
const ForkIdSchema = z.object({ fork_id: z.string().min(1, 'fork_id is required') });

/** What the model reads: where a fork starts, what it may do, and how its answer comes back. */
function description(limit: number): string {
  return [
    'Run sub-agents (forks) in parallel. {"method": M, "arguments": {...}}:',
    `- spawn {"task": short name, "instruction", "tools"?: [names]}: a fork starts from this conversation as it was before this request, plus its task, and works on its own with your tools (or those named), approval mode and permission rules; it cannot change your context or project experiences. Answers {"fork_id", "status"} at once; ${limit} run at a time per turn, the rest queue.`,
    '- gather_all {"include_history"?: false, "timeout_s"?}: waits until every fork of this turn has ended; answers {fork_id: {"status", "response"}}, the response being its final reply. Forks still running at the timeout have "timed_out": true.',
    '- status {"fork_id"}; cancel {"fork_id"}. Forks still running when your turn ends are cancelled: gather them first.',
  ].join('\n');
}

/** The agent's tool for forks: each fork's own calls obey the permissions, so Fork itself never asks. */
export function forkTool(port: ForkToolPort): Tool<typeof inputSchema> {
  return {
    name: 'Fork',
    description: description(port.limit),
    inputSchema,
    sideEffects: false,
    needsProject: false,
    methods: METHODS.map((name) => ({ name, kind: 'batch' as const, description: `Fork ${name}` })),
    async execute(input, ctx: ToolContext) {
      const args = input.arguments ?? {};
      const caller: ForkCaller = { sessionId: ctx.sessionId, turnId: ctx.turnId };
      const answer = (value: unknown) => ({ content: JSON.stringify(value, null, 1) });
      switch (input.method) {
        case 'spawn': {
          const parsed = parse(SpawnSchema, args, 'spawn');
          return answer(port.spawn(caller, parsed));
        }
        case 'gather_all': {
          const parsed = parse(GatherSchema, args, 'gather_all');
          const gathered = await port.gatherAll(
            caller,
            { includeHistory: parsed.include_history ?? false, timeoutSeconds: parsed.timeout_s },
            ctx.signal,
          );
          return answer(gathered);
        }
        case 'status':
          return answer(port.status(caller, parse(ForkIdSchema, args, 'status').fork_id));
        case 'cancel':
          return answer(await port.cancel(caller, parse(ForkIdSchema, args, 'cancel').fork_id));
      }
    },
  };
}

const parse = <S extends z.ZodType>(schema: S, value: unknown, method: string): z.infer<S> =>
  methodArguments(schema, value, 'Fork', method);
