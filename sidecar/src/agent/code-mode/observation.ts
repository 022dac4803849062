import type { KernelErrorDetails } from '../../protocol/kernels';
import { clip } from '../../tools/builtin/kernel-result';

/** The kernel's structured error, of which the observation needs the type and message at least. */
export type ObservationError = Pick<KernelErrorDetails, 'type' | 'message'> &
  Partial<Pick<KernelErrorDetails, 'line' | 'snippet' | 'pointer' | 'traceback'>>;

export interface ObservationInput {
  stdout: string;
  stderr: string;
  /** The text of the last expression's value, when the code ended with one. */
  value: string | null;
  error: ObservationError | null;
  /** Images the code displayed: the user sees them, the model is only told they were shown. */
  images: number;
}

/** The traceback's end is where the user's code failed; its start is frames the model need not read. */
const TRACEBACK_LINES = 12;

/**
 * What the model reads after its code ran: the printed output and the last value, cut in the middle past
 * `limit` characters (head and tail kept, so both the setup and the result stay visible), then the
 * structured error when the code raised.
 */
export function formatObservation(input: ObservationInput, limit = 20_000): string {
  const parts: string[] = [];
  const stdout = input.stdout.trimEnd();
  const stderr = input.stderr.trimEnd();
  if (stdout) parts.push(stdout);
  if (stderr) parts.push(`[stderr]\n${stderr}`);
  if (input.value !== null) parts.push(`Last value: ${input.value}`);
  const printed = parts.join('\n');
  const sections: string[] = [];
  if (printed) sections.push(clip(printed, limit));
  else if (!input.error) sections.push('(no output)');
  if (input.images > 0) {
    sections.push(`[${input.images} image${input.images === 1 ? '' : 's'} shown to the user]`);
  }
  if (input.error) sections.push(errorSection(input.error));
  return sections.join('\n');
}

function errorSection(error: ObservationError): string {
  const lines = [`Error: ${error.type}: ${error.message}`];
  if (error.line != null) lines.push(`At line ${error.line}:`);
  if (error.snippet) lines.push(error.snippet);
  if (error.pointer) lines.push(error.pointer);
  const traceback = (error.traceback ?? []).join('\n').split('\n').filter(Boolean);
  if (traceback.length > 0) {
    lines.push('Traceback (last lines):', ...traceback.slice(-TRACEBACK_LINES));
  }
  return lines.join('\n');
}
