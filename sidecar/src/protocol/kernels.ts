import * as z from 'zod/mini';

/** Wire shapes of Python kernels: their state, outputs, requests and the notebook export. */

export const KERNEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const KernelName = z
  .string()
  .check(
    z.regex(
      KERNEL_NAME_PATTERN,
      'a kernel name is 1 to 64 letters, digits, "-" or "_", starting with a letter or digit',
    ),
  );

export const KernelState = z.enum(['not_started', 'starting', 'idle', 'busy', 'waiting_input', 'dead']);
export type KernelState = z.infer<typeof KernelState>;

export const KernelInfo = z.object({
  name: z.string(),
  state: KernelState,
  pid: z.nullable(z.number().check(z.int())),
  /** The interpreter's version, once started (`3.11.7`). */
  python: z.nullable(z.string()),
  ipython: z.nullable(z.boolean()),
  /** Executions since this sidecar opened the kernel. */
  execution_count: z.number().check(z.int()),
});
export type KernelInfo = z.infer<typeof KernelInfo>;

/** A rich output saved as a file; fetch it with GET /api/artifacts/{id}. */
export const KernelArtifact = z.object({
  id: z.string(),
  mime: z.string(),
  bytes: z.number().check(z.int()),
});
export type KernelArtifact = z.infer<typeof KernelArtifact>;

/** A MIME bundle as clients see it: the plain text inline, everything else as artifacts. */
export const KernelRichOutput = z.object({
  text: z.nullable(z.string()),
  artifacts: z.array(KernelArtifact),
});
export type KernelRichOutput = z.infer<typeof KernelRichOutput>;

/** A structured Python error: what a model needs to fix the cell, and the user's own frames only. */
export const KernelErrorDetails = z.object({
  type: z.string(),
  message: z.string(),
  line: z.nullable(z.number().check(z.int())),
  column: z.nullable(z.number().check(z.int())),
  snippet: z.nullable(z.string()),
  pointer: z.nullable(z.string()),
  summary: z.string(),
  traceback: z.array(z.string()),
});
export type KernelErrorDetails = z.infer<typeof KernelErrorDetails>;

export const KernelLimitHit = z.object({
  kind: z.enum(['active_time', 'input_idle']),
  limit_ms: z.number().check(z.int()),
  action: z.enum(['interrupted', 'killed_and_restarted']),
});
export type KernelLimitHit = z.infer<typeof KernelLimitHit>;

export const KernelVariable = z.object({ name: z.string(), type: z.string(), repr: z.string() });
export type KernelVariable = z.infer<typeof KernelVariable>;

// ---- requests ----

export const KernelExecuteRequest = z.object({
  code: z
    .string()
    .check(
      z.minLength(1, 'code is required'),
      z.maxLength(1_000_000, 'code must be at most 1,000,000 characters'),
    ),
});
export type KernelExecuteRequest = z.infer<typeof KernelExecuteRequest>;

export const KernelInputReplyRequest = z.object({
  request_id: z.string().check(z.minLength(1, 'request_id is required')),
  value: z.string({ error: 'value is required (a string; "" for an empty line)' }),
});
export type KernelInputReplyRequest = z.infer<typeof KernelInputReplyRequest>;

// ---- responses ----

export const KernelList = z.object({ kernels: z.array(KernelInfo) });
export type KernelList = z.infer<typeof KernelList>;

/**
 * The answer to an execute request: the cell is queued, and the kernel's state after queueing it. The
 * execution's id and output arrive as `kernel.*` events (the user's cells have `tool_call_id` null).
 */
export const KernelExecuteAccepted = z.object({ kernel: KernelInfo });
export type KernelExecuteAccepted = z.infer<typeof KernelExecuteAccepted>;

export const KernelInterruptResult = z.object({
  /** false when no cell was running. */
  interrupted: z.boolean(),
});
export type KernelInterruptResult = z.infer<typeof KernelInterruptResult>;

export const KernelVariableList = z.object({ variables: z.array(KernelVariable) });
export type KernelVariableList = z.infer<typeof KernelVariableList>;

// ---- the notebook export (nbformat 4.5, code cells with their outputs) ----

const MultilineString = z.union([z.string(), z.array(z.string())]);

export const NotebookOutput = z.discriminatedUnion('output_type', [
  z.object({ output_type: z.literal('stream'), name: z.enum(['stdout', 'stderr']), text: MultilineString }),
  z.object({
    output_type: z.literal('display_data'),
    data: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
  }),
  z.object({
    output_type: z.literal('execute_result'),
    execution_count: z.nullable(z.number().check(z.int())),
    data: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
  }),
  z.object({
    output_type: z.literal('error'),
    ename: z.string(),
    evalue: z.string(),
    traceback: z.array(z.string()),
  }),
]);
export type NotebookOutput = z.infer<typeof NotebookOutput>;

export const NotebookCell = z.object({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  cell_type: z.literal('code'),
  execution_count: z.nullable(z.number().check(z.int())),
  metadata: z.record(z.string(), z.unknown()),
  source: MultilineString,
  outputs: z.array(NotebookOutput),
});
export type NotebookCell = z.infer<typeof NotebookCell>;

export const Notebook = z.object({
  nbformat: z.literal(4),
  nbformat_minor: z.number().check(z.int()),
  metadata: z.record(z.string(), z.unknown()),
  cells: z.array(NotebookCell),
});
export type Notebook = z.infer<typeof Notebook>;

// ---- where kernels run: this machine, or a Jupyter Server ----

export const KernelProviderKind = z.enum(['local', 'jupyter']);
export type KernelProviderKind = z.infer<typeof KernelProviderKind>;

/** The kernel provider as the API shows it; the Jupyter token is never returned, only whether one is saved. */
export const KernelProviderSettings = z.object({
  provider: KernelProviderKind,
  jupyter: z.object({
    /** The server's base URL (`https://host/prefix/`), null when none is set. */
    url: z.nullable(z.string()),
    /** The kernelspec kernels start with on the server. */
    kernel_name: z.string(),
    has_token: z.boolean(),
  }),
  /** Set by CAIRN_JUPYTER_URL (and CAIRN_JUPYTER_TOKEN): the settings cannot be changed through the API. */
  env_override: z.boolean(),
});
export type KernelProviderSettings = z.infer<typeof KernelProviderSettings>;

/** Saves the provider; an absent or empty token keeps the saved one, `clear_token` removes it. */
export const UpdateKernelProviderRequest = z.strictObject({
  provider: KernelProviderKind,
  jupyter_url: z.optional(z.nullable(z.string().check(z.maxLength(2_000)))),
  jupyter_kernel_name: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
          'a kernelspec name is letters, digits, ".", "-" or "_"',
        ),
      ),
  ),
  jupyter_token: z.optional(z.string().check(z.maxLength(4_096))),
  clear_token: z.optional(z.boolean()),
});
export type UpdateKernelProviderRequest = z.infer<typeof UpdateKernelProviderRequest>;

/** A Jupyter Server answered with the token: its version and the kernelspecs it offers. */
export const KernelProviderTestResult = z.object({
  ok: z.literal(true),
  version: z.string(),
  kernel_names: z.array(z.string()),
});
export type KernelProviderTestResult = z.infer<typeof KernelProviderTestResult>;
