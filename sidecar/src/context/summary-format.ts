import { type StructuredSummary, SUMMARY_FIELDS } from '../protocol';

const TEXT_FIELDS = new Set(['goal', 'instruction', 'current_status']);

const LABELS: Record<(typeof SUMMARY_FIELDS)[number], string> = {
  goal: 'Goal',
  instruction: 'Instructions from the user',
  discoveries: 'Discoveries',
  completed: 'Completed (do not redo)',
  current_status: 'Current status',
  likely_next_work: 'Likely next work',
  relevant_files_directories: 'Relevant files and directories',
  remember: 'Remember',
};

/** The JSON schema of the summary, for the summary call's tool and the Context tool's description. */
export const SUMMARY_JSON_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(
    SUMMARY_FIELDS.map((field) => [
      field,
      TEXT_FIELDS.has(field) ? { type: 'string' } : { type: 'array', items: { type: 'string' } },
    ]),
  ),
  required: [...SUMMARY_FIELDS],
} as const;

/**
 * A summary from a model or the agent, made whole: text fields as text, list fields as lists, missing
 * ones empty. Null when it holds nothing at all (a summary call that returned no summary).
 */
export function normalizeSummary(raw: unknown): StructuredSummary | null {
  if (!raw || typeof raw !== 'object') return null;
  const source = raw as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  let filled = false;
  for (const field of SUMMARY_FIELDS) {
    const value = source[field];
    const list = (Array.isArray(value) ? value : value == null || value === '' ? [] : [value])
      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)).trim())
      .filter((v) => v.length > 0);
    if (list.length > 0) filled = true;
    result[field] = TEXT_FIELDS.has(field) ? list.join('\n') : list;
  }
  // Kernel variables are read from the kernels themselves, never taken from what a model or the agent wrote.
  return filled ? (result as StructuredSummary) : null;
}

/** The summary as the model reads it: the same text for the same summary, so a cached prefix stays valid. */
export function formatSummary(summary: StructuredSummary): string {
  const lines: string[] = [];
  for (const field of SUMMARY_FIELDS) {
    const value = summary[field];
    if (typeof value === 'string') {
      if (value) lines.push(`${LABELS[field]}: ${value}`);
    } else if (value.length > 0) {
      lines.push(`${LABELS[field]}:`, ...value.map((v) => `- ${v}`));
    }
  }
  if (summary.kernel_variables?.length) {
    lines.push('Live Python kernel variables when this was written:');
    for (const v of summary.kernel_variables) lines.push(`- ${v.kernel}: ${v.name} (${v.type}) = ${v.repr}`);
  }
  return lines.join('\n');
}
