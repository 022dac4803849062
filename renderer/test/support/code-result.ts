/** An execute_code result as sidecar/src/tools/builtin/kernel-result.ts writes it, with fields replaced. */
export function codeResult(patch: Record<string, unknown> = {}) {
  return {
    success: true,
    stdout: '',
    stderr: '',
    return_value: null,
    error: null,
    error_details: null,
    execution_time_ms: 12,
    files: [],
    kernel: 'default',
    ...patch,
  };
}
