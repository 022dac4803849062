import { z } from 'zod';

/**
 * The messages between Cairn and the worker of a loaded tool: the JavaScript core
 * (assets/tool-worker-core.mjs, in a process or in the sidecar) or the Python worker
 * (assets/cairn_tool_worker.py). In a process they travel as one JSON object per line.
 *
 * Cairn sends `load` once, then any number of `call`s (each with its own `id`, so calls run at once),
 * `cancel` for a running call, and `stop` before it ends the worker. The worker answers `loaded` or
 * `load_error`, then `item`s (a stream method's pieces) and one `done` per call, and `closed` after `stop`.
 */
export type ToWorker =
  | {
      type: 'load';
      /** What the JavaScript core imports: a file URL (with a query that makes each load fresh). */
      module: string;
      /** The file itself (the Python worker imports it; the core forgets its CommonJS cache entry). */
      file: string;
      factory: string;
      config: Record<string, unknown>;
    }
  | {
      type: 'call';
      id: number;
      method: string;
      arguments: Record<string, unknown>;
      union_id: string | null;
      /** The tool call's id in Cairn, for the tool's own bookkeeping. */
      call_id: string;
    }
  | { type: 'cancel'; id: number }
  | { type: 'stop' };

/** One method as the worker found it; the sidecar decides whether it is usable (tool-description.ts). */
export const WorkerMethod = z.object({
  name: z.string(),
  kind: z.string().nullable(),
  description: z.string().nullable(),
  input_schema: z.unknown(),
  runnable: z.boolean(),
});
export type WorkerMethod = z.infer<typeof WorkerMethod>;

export const WorkerToolDescription = z.object({
  name: z.string().nullable(),
  description: z.string().nullable(),
  methods: z.array(WorkerMethod),
});
export type WorkerToolDescription = z.infer<typeof WorkerToolDescription>;

export const FromWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('loaded'), tool: WorkerToolDescription }),
  z.object({ type: z.literal('load_error'), message: z.string() }),
  z.object({ type: z.literal('item'), id: z.number(), text: z.string() }),
  z.object({
    type: z.literal('done'),
    id: z.number(),
    /** The method's return value (a stream method's generator return value), as JSON. */
    value: z.unknown(),
    /** Set when the method failed: its exception with the last lines of its traceback. */
    error: z.string().nullable(),
    /** The call ended after a cancel (its value and error are then of no interest). */
    cancelled: z.boolean(),
  }),
  z.object({ type: z.literal('closed') }),
]);
export type FromWorker = z.infer<typeof FromWorker>;

/**
 * How messages reach a worker and come back, whatever carries them (a process's pipes, or memory for a
 * tool in the sidecar): the protocol (worker-client.ts) knows nothing of bytes.
 */
export interface WorkerChannel {
  send(message: ToWorker): void;
  onMessage(handler: (message: FromWorker) => void): void;
  /** The other side can no longer answer (its stream ended). */
  onClose(handler: () => void): void;
}
