import type { CairnEvent } from '../../protocol';
import type { CallOutcome } from '../../tools/runtime/call-request';
import type { ObservationInput } from './observation';

/** A code step's cell as the journal tells it: what the observation needs, and whether state was lost. */
export interface CellRecord {
  observation: ObservationInput;
  stateLost: boolean;
}

/**
 * The cell the execute_code call `outcome` ran, read from the kernel events journaled since `events`
 * started: the whole streams (the tool's own result clips them for a model reading JSON), the last value,
 * the structured error and the images shown. Null when no cell ran (the call was denied or refused).
 */
export function cellRecord(outcome: CallOutcome, events: readonly CairnEvent[]): CellRecord | null {
  const started = events.find(
    (e) => e.type === 'kernel.execution_started' && e.tool_call_id === outcome.callId,
  );
  if (started?.type !== 'kernel.execution_started') return null;
  const id = started.execution_id;
  const observation: ObservationInput = { stdout: '', stderr: '', value: null, error: null, images: 0 };
  let stateLost = false;
  for (const event of events) {
    if (!('execution_id' in event) || event.execution_id !== id) continue;
    if (event.type === 'kernel.stream') observation[event.stream] += event.text;
    else if (event.type === 'kernel.display') {
      if (event.artifacts.some((a) => a.mime.startsWith('image/'))) observation.images += 1;
    } else if (event.type === 'kernel.result') {
      observation.value = event.return_value?.text ?? null;
      observation.error = event.error;
      stateLost = event.state_lost !== null;
    } else if (event.type === 'kernel.error') {
      observation.error = { type: 'KernelError', message: event.message };
    } else if (event.type === 'kernel.died') {
      stateLost = true;
    }
  }
  return { observation, stateLost };
}
