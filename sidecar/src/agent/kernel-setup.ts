import { envFlag, envInt } from '../config/env-flags';
import { KernelManager } from '../kernels/kernel-manager';
import { DEFAULT_LIMITS } from '../kernels/kernel-types';
import type { Logger } from '../log/logger';
import type { Store } from '../store/store';
import { childEnv } from '../tools/child-env';
import type { KernelProviderService } from './kernel-provider-service';
import { KernelService } from './kernel-service';

/**
 * The kernel manager and service of a Cairn process. Kernels get Cairn's environment without its
 * secrets. CAIRN_KERNEL_PYTHON names the interpreter for every project (over each project's own
 * python_path, its `.venv`/`venv` and `python3` on PATH); CAIRN_KERNEL_IPYTHON=0 runs the stdlib
 * driver even where IPython is importable; CAIRN_KERNEL_WARM=0 keeps no spare kernel started.
 * CAIRN_KERNEL_TIMEOUT_MS and CAIRN_KERNEL_INPUT_TIMEOUT_MS set the active-time limit per call and
 * the idle limit per input().
 */
export function createKernelService(options: {
  store: Store;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Where new kernels start (a Jupyter Server when one is set). */
  provider: KernelProviderService;
}): KernelService {
  const { env } = options;
  const kernelEnv = childEnv(env);
  const logger = options.logger.child({ component: 'kernels' });
  const manager = new KernelManager({
    // Per start: a secret registered since (a key saved later) is scrubbed from later kernels too.
    env: () => childEnv(env),
    remote: () => options.provider.target(),
    ipython: flag(env.CAIRN_KERNEL_IPYTHON, true),
    warm: flag(env.CAIRN_KERNEL_WARM, true),
    limits: {
      activeMs: positive(env.CAIRN_KERNEL_TIMEOUT_MS, DEFAULT_LIMITS.activeMs),
      inputIdleMs: positive(env.CAIRN_KERNEL_INPUT_TIMEOUT_MS, DEFAULT_LIMITS.inputIdleMs),
    },
    logger,
  });
  const pythonOverride = env.CAIRN_KERNEL_PYTHON?.trim() || null;
  return new KernelService({
    manager,
    store: options.store,
    dataDir: options.dataDir,
    kernelEnv,
    pythonOverride,
    logger,
  });
}

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value.trim() === '' ? fallback : envFlag(value);
}

/** A limit of 0 would stop every cell at once: only positive values replace the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = envInt(value, fallback);
  return n > 0 ? n : fallback;
}
