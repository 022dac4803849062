/** One line (or the code) of what a call will do, for its approval question. */
export function describeInput(input: unknown): string {
  if (input && typeof input === 'object') {
    const record = input as Record<string, unknown>;
    if (typeof record.command === 'string') return `Command: ${record.command}`;
    if (typeof record.code === 'string') {
      const code = record.code.length > 2000 ? `${record.code.slice(0, 2000)}…` : record.code;
      return `Python code:\n${code}`;
    }
    if (typeof record.program === 'string') {
      const args = Array.isArray(record.args) ? record.args.join(' ') : '';
      return `Program: ${record.program} ${args}`.trim();
    }
    if (typeof record.path === 'string') return `Path: ${record.path}`;
  }
  const text = JSON.stringify(input);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
