import { envFlag, envInt } from '../../config/env-flags';
import type { JupyterTarget, KernelManagerOptions } from '../../kernels/kernel-manager';
import { DEFAULT_LIMITS } from '../../kernels/kernel-types';
import type { Logger } from '../../log/logger';
import { childEnv } from '../../tools/child-env';

/**
 * How this process's kernels run, from its environment. Kernels get Cairn's environment without its
 * secrets. CAIRN_KERNEL_IPYTHON=0 runs the stdlib driver even where IPython is importable;
 * CAIRN_KERNEL_WARM=0 keeps no spare kernel started; CAIRN_KERNEL_TIMEOUT_MS and
 * CAIRN_KERNEL_INPUT_TIMEOUT_MS set the active-time limit per call and the idle limit per input().
 */
export function kernelManagerOptions(options: {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Where the next kernel starts: a Jupyter Server, or null for this machine. */
  remote: () => Promise<JupyterTarget | null>;
  /** What local kernels add to their environment to reach Cairn's tools (ToolRuntimeService.scriptEnv). */
  scriptEnv?: KernelManagerOptions['scriptEnv'];
}): KernelManagerOptions {
  const { env } = options;
  return {
    // Per start: a secret registered since (a key saved later) is scrubbed from later kernels too.
    env: () => childEnv(env),
    remote: options.remote,
    ...(options.scriptEnv ? { scriptEnv: options.scriptEnv } : {}),
    ipython: flag(env.CAIRN_KERNEL_IPYTHON, true),
    warm: flag(env.CAIRN_KERNEL_WARM, true),
    limits: {
      activeMs: positive(env.CAIRN_KERNEL_TIMEOUT_MS, DEFAULT_LIMITS.activeMs),
      inputIdleMs: positive(env.CAIRN_KERNEL_INPUT_TIMEOUT_MS, DEFAULT_LIMITS.inputIdleMs),
    },
    logger: options.logger,
  };
}

/** CAIRN_KERNEL_PYTHON: the interpreter for every project, over each project's own setting. */
export function kernelPythonOverride(env: NodeJS.ProcessEnv): string | null {
  return env.CAIRN_KERNEL_PYTHON?.trim() || null;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value.trim() === '' ? fallback : envFlag(value);
}

/** A limit of 0 would stop every cell at once: only positive values replace the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = envInt(value, fallback);
  return n > 0 ? n : fallback;
}
