import type { Tool } from '../tool';

/** How the runtime will run one call, read off its input before the tool's own schema checks the rest. */
export interface CallPlan {
  /** The input the tool gets: without the runtime's own fields. */
  input: unknown;
  /** It returns a receipt and runs on (`is_wait` false, or a stream method). */
  background: boolean;
  /** A limit the runtime keeps itself (`timeout` of a tool that leaves it to the runner); null: none. */
  timeoutMs: number | null;
  /** For a tool with several methods: the method called. */
  method: string | null;
  /** Why the call cannot run as asked; the call fails with this. */
  error: string | null;
}

/**
 * Takes the runtime's fields off a call's input: `is_wait` (false: background, where the tool allows it),
 * and `timeout` for tools that leave it to the runner. A stream method always runs in the background.
 */
export function planCall(tool: Tool, raw: unknown): CallPlan {
  const plan: CallPlan = { input: raw, background: false, timeoutMs: null, method: null, error: null };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return plan;
  // A tool whose own input has `is_wait` (an MCP tool may) gets it as given, and never runs in the background.
  if (ownsProperty(tool, 'is_wait')) return plan;
  const { is_wait: isWait, ...rest } = raw as Record<string, unknown>;
  plan.input = rest;
  if (isWait !== undefined && typeof isWait !== 'boolean') {
    return { ...plan, error: `"is_wait" must be true or false, not ${JSON.stringify(isWait)}.` };
  }
  if (isWait === false && !tool.background) {
    return {
      ...plan,
      error: `${tool.name} answers at once and cannot run in the background: call it without "is_wait".`,
    };
  }
  plan.background = isWait === false;
  if (tool.methods) {
    const method = typeof rest.method === 'string' ? rest.method : null;
    plan.method = method;
    const kind = tool.methods.find((m) => m.name === method)?.kind;
    if (kind === 'stream') plan.background = true;
  }
  if (tool.background === 'runner' && rest.timeout !== undefined && !ownsProperty(tool, 'timeout')) {
    const { timeout, ...withoutTimeout } = rest;
    plan.input = withoutTimeout;
    if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
      return {
        ...plan,
        error: `"timeout" must be a positive number of seconds, not ${JSON.stringify(timeout)}.`,
      };
    }
    plan.timeoutMs = Math.round(timeout * 1000);
  }
  return plan;
}

/** Whether a tool's own input (an MCP tool's schema) has this property: the runtime then leaves it alone. */
export function ownsProperty(tool: Tool, name: string): boolean {
  const properties = tool.jsonSchema?.properties;
  return typeof properties === 'object' && properties !== null && name in properties;
}
