import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { KernelController } from '../../state/kernel-controller';
import type { KernelCell, KernelsState } from '../../state/kernel-view';

/**
 * The open session's kernel controller, for code steps to find the cell they ran. A context, as step
 * cards sit deep in memoized, virtualized turns; null where the server has no kernels (no images then).
 */
export const StepCells = createContext<KernelController | null>(null);

const noSubscribe = () => () => {};

/** The cell the agent's tool call `toolCallId` ran (`kernel.execution_started` names it), if any. */
export function cellOfCall(state: KernelsState, toolCallId: string): KernelCell | null {
  for (const kernel of state.kernels) {
    const cell = kernel.cells.find((c) => c.toolCallId === toolCallId);
    if (cell) return cell;
  }
  return null;
}

/**
 * The cell a step's call ran, as the kernel panel's state holds it (history and live). The reducer keeps
 * an unchanged cell's object, so a step re-renders only when its own cell changes.
 */
export function useStepCell(toolCallId: string | null): KernelCell | null {
  const controller = useContext(StepCells);
  const read = useCallback(
    () => (controller && toolCallId ? cellOfCall(controller.getSnapshot().state, toolCallId) : null),
    [controller, toolCallId],
  );
  return useSyncExternalStore(controller?.subscribe ?? noSubscribe, read);
}
