import { existsSync } from 'node:fs';
import type { CairnEvent } from '../../src/protocol';
import type { Harness } from './harness';

/**
 * Which Python the sidecar's kernels use in these tests: the stdlib driver (`python3` on PATH, IPython
 * switched off) and Debian's python3 with IPython and matplotlib.
 */
export const STDLIB_KERNEL_ENV = { CAIRN_KERNEL_IPYTHON: '0' };
export const IPYTHON_PYTHON = '/usr/bin/python3';
export const IPYTHON_KERNEL_ENV = { CAIRN_KERNEL_PYTHON: IPYTHON_PYTHON, CAIRN_KERNEL_IPYTHON: '1' };
export const HAS_MATPLOTLIB_PYTHON = existsSync(IPYTHON_PYTHON);

export type KernelJournalEvent = Extract<CairnEvent, { type: `kernel.${string}` }>;

/** The session's kernel events so far, in journal order. */
export async function kernelEvents(h: Harness, sessionId: string): Promise<KernelJournalEvent[]> {
  return (await h.events(sessionId)).filter((e): e is KernelJournalEvent => e.type.startsWith('kernel.'));
}

/** The events of one execution, from its start to its result. */
export function ofExecution(events: KernelJournalEvent[], executionId: string): KernelJournalEvent[] {
  return events.filter((e) => 'execution_id' in e && e.execution_id === executionId);
}

/** Waits for the end (`kernel.result` or `kernel.error`) of the n-th execution (1-based) of a session. */
export async function waitForExecutionEnd(
  h: Harness,
  sessionId: string,
  n = 1,
): Promise<Extract<CairnEvent, { type: 'kernel.result' | 'kernel.error' }>> {
  let seen = 0;
  const end = await h.waitForEvent(sessionId, (e) => {
    if (e.type !== 'kernel.result' && e.type !== 'kernel.error') return false;
    seen += 1;
    return seen === n;
  });
  return end as Extract<CairnEvent, { type: 'kernel.result' | 'kernel.error' }>;
}

/** The JSON a kernel tool gave the model: the i-th tool_result of the request with that index. */
export function toolResultJson(h: Harness, request: number, i = 0): Record<string, unknown> {
  const last = h.model.requests[request]!.body.messages.at(-1)!;
  const blocks = last.content as { type: string; content: string }[];
  return JSON.parse(blocks.filter((b) => b.type === 'tool_result')[i]!.content) as Record<string, unknown>;
}
