import type {
  CairnEvent,
  ErrorCode,
  KernelErrorDetails,
  KernelInfo,
  KernelLimitHit,
  KernelRichOutput,
  KernelState,
  KernelVariable,
} from '../../../sidecar/src/protocol';

export type KernelEvent = Extract<CairnEvent, { type: `kernel.${string}` }>;

export function isKernelEvent(event: CairnEvent): event is KernelEvent {
  return event.type.startsWith('kernel.');
}

/** One piece of a cell's output, in the order it arrived. */
export type CellOutput =
  | { kind: 'stream'; stream: 'stdout' | 'stderr'; text: string }
  | { kind: 'display'; output: KernelRichOutput };

export interface CellInputRequest {
  requestId: string;
  prompt: string;
  password: boolean;
}

export type CellStatus = 'running' | 'waiting_input' | 'done' | 'failed' | 'died';

/** One execution, by the agent (with its turn and tool call) or by the user. */
export interface KernelCell {
  executionId: string;
  code: string;
  turnId: string | null;
  toolCallId: string | null;
  status: CellStatus;
  outputs: CellOutput[];
  input: CellInputRequest | null;
  success: boolean | null;
  returnValue: KernelRichOutput | null;
  error: KernelErrorDetails | null;
  /** Why the cell could not run (`kernel.error`) or the kernel died under it. */
  failure: { code: ErrorCode; message: string } | null;
  executionTimeMs: number | null;
  limit: KernelLimitHit | null;
  stateLost: string | null;
}

export interface KernelView {
  name: string;
  state: KernelState;
  pid: number | null;
  python: string | null;
  ipython: boolean | null;
  cells: KernelCell[];
  variables: KernelVariable[] | null;
  /** The last death between calls, shown until the next start. */
  died: string | null;
}

export interface KernelsState {
  kernels: KernelView[];
  /** The newest journal event folded in: older or repeated events are ignored. */
  lastSeq: number;
}

export const EMPTY_KERNELS: KernelsState = { kernels: [], lastSeq: 0 };

/** Bounds a cell's streamed text so a runaway loop cannot exhaust the renderer. */
const MAX_STREAM_CHARS = 256 * 1024;

function emptyKernel(name: string): KernelView {
  return {
    name,
    state: 'not_started',
    pid: null,
    python: null,
    ipython: null,
    cells: [],
    variables: null,
    died: null,
  };
}

function withKernel(state: KernelsState, name: string, change: (k: KernelView) => KernelView): KernelsState {
  const index = state.kernels.findIndex((k) => k.name === name);
  const kernels = state.kernels.slice();
  if (index === -1) kernels.push(change(emptyKernel(name)));
  else kernels[index] = change(kernels[index]!);
  return { ...state, kernels };
}

function withCell(
  kernel: KernelView,
  executionId: string,
  change: (c: KernelCell) => KernelCell,
): KernelView {
  const index = kernel.cells.findIndex((c) => c.executionId === executionId);
  if (index === -1) return kernel;
  const cells = kernel.cells.slice();
  cells[index] = change(cells[index]!);
  return { ...kernel, cells };
}

function appendStream(outputs: CellOutput[], stream: 'stdout' | 'stderr', text: string): CellOutput[] {
  const last = outputs.at(-1);
  if (last?.kind === 'stream' && last.stream === stream) {
    const merged = (last.text + text).slice(-MAX_STREAM_CHARS);
    return [...outputs.slice(0, -1), { ...last, text: merged }];
  }
  return [...outputs, { kind: 'stream', stream, text: text.slice(-MAX_STREAM_CHARS) }];
}

/** Folds one journal event into the panel's state: the one reducer for `kernel.*` events. */
export function applyKernelEvent(state: KernelsState, event: CairnEvent): KernelsState {
  if (event.seq <= state.lastSeq) return state;
  const next = { ...state, lastSeq: event.seq };
  if (!isKernelEvent(event)) return next;
  switch (event.type) {
    case 'kernel.started':
      return withKernel(next, event.kernel, (k) => ({
        ...k,
        state: k.state === 'busy' ? 'busy' : 'idle',
        pid: event.pid,
        python: event.python,
        ipython: event.ipython,
        died: null,
      }));
    case 'kernel.execution_started':
      return withKernel(next, event.kernel, (k) => ({
        ...k,
        state: 'busy',
        cells: [
          ...k.cells,
          {
            executionId: event.execution_id,
            code: event.code,
            turnId: event.turn_id,
            toolCallId: event.tool_call_id,
            status: 'running',
            outputs: [],
            input: null,
            success: null,
            returnValue: null,
            error: null,
            failure: null,
            executionTimeMs: null,
            limit: null,
            stateLost: null,
          },
        ],
      }));
    case 'kernel.stream':
      return withKernel(next, event.kernel, (k) =>
        withCell(k, event.execution_id, (c) => ({
          ...c,
          outputs: appendStream(c.outputs, event.stream, event.text),
        })),
      );
    case 'kernel.display':
      return withKernel(next, event.kernel, (k) =>
        withCell(k, event.execution_id, (c) => ({
          ...c,
          outputs: [
            ...c.outputs,
            { kind: 'display', output: { text: event.text, artifacts: event.artifacts } },
          ],
        })),
      );
    case 'kernel.input_request':
      return withKernel(next, event.kernel, (k) =>
        withCell({ ...k, state: 'waiting_input' }, event.execution_id, (c) => ({
          ...c,
          status: 'waiting_input',
          input: { requestId: event.request_id, prompt: event.prompt, password: event.password },
        })),
      );
    case 'kernel.result':
      return withKernel(next, event.kernel, (k) =>
        withCell({ ...k, state: 'idle' }, event.execution_id, (c) => ({
          ...c,
          status: event.success ? 'done' : 'failed',
          input: null,
          success: event.success,
          returnValue: event.return_value,
          error: event.error,
          executionTimeMs: event.execution_time_ms,
          limit: event.limit,
          stateLost: event.state_lost,
        })),
      );
    case 'kernel.error':
      return withKernel(next, event.kernel, (k) => {
        const settled = { ...k, state: k.state === 'dead' ? k.state : ('idle' as const) };
        if (event.execution_id === null) return settled;
        return withCell(settled, event.execution_id, (c) => ({
          ...c,
          status: 'failed',
          input: null,
          failure: { code: event.code, message: event.message },
        }));
      });
    case 'kernel.died':
      return withKernel(next, event.kernel, (k) => {
        const dead: KernelView = { ...k, state: 'dead', pid: null, died: event.message };
        if (event.execution_id === null) return dead;
        return withCell(dead, event.execution_id, (c) => ({
          ...c,
          status: c.status === 'running' || c.status === 'waiting_input' ? 'died' : c.status,
          input: null,
          failure: c.failure ?? { code: 'kernel_died', message: event.message },
        }));
      });
    default:
      return next;
  }
}

/** Merges what `GET …/kernels` says (kernels not yet seen in the journal, and their current state). */
export function withKernelInfo(state: KernelsState, infos: KernelInfo[]): KernelsState {
  return infos.reduce(
    (s, info) =>
      withKernel(s, info.name, (k) => ({
        ...k,
        state: info.state,
        pid: info.pid,
        python: info.python ?? k.python,
        ipython: info.ipython ?? k.ipython,
      })),
    state,
  );
}

export function withVariables(state: KernelsState, name: string, variables: KernelVariable[]): KernelsState {
  return withKernel(state, name, (k) => ({ ...k, variables }));
}

/** The input request a kernel waits on, if any. */
export function pendingInput(kernel: KernelView): { cell: KernelCell; request: CellInputRequest } | null {
  for (const cell of kernel.cells) if (cell.input) return { cell, request: cell.input };
  return null;
}
