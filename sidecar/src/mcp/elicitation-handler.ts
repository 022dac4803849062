import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger';
import type { ElicitationAction, ElicitationContent, ElicitationInfo } from '../protocol';
import type { CallDeadline } from './call-deadline';

/** Bounds on what a server may put in front of the user: its form is untrusted. */
export const ELICITATION_LIMITS = {
  messageChars: 4_000,
  schemaBytes: 32 * 1024,
  fields: 50,
  /** Forms one call may ask in all: more are answered "cancel" at once (a server asking in a loop). */
  formsPerCall: 10,
} as const;

/** A warning repeated by a misbehaving server is logged at most once in this long. */
const WARN_EVERY_MS = 60_000;

/** Asks the user to fill the form; `signal` ends the wait (the question is then closed). */
export type Elicit = (
  message: string,
  elicitation: ElicitationInfo,
  signal: AbortSignal,
) => Promise<{ action: ElicitationAction; content: ElicitationContent | null }>;

/** A running tool call that can put a form to its user. */
export interface ElicitingCall {
  controller: AbortController;
  deadline: CallDeadline;
  /** A background call (not waited for by its turn): a form goes to a waited call first. */
  background?: boolean;
  elicit?: Elicit | undefined;
}

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** `log.warn` at most once per WARN_EVERY_MS, saying how many were left out meanwhile. */
function rateLimitedWarn(log: Logger, msg: string): (fields?: Record<string, unknown>) => void {
  let last = Number.NEGATIVE_INFINITY;
  let skipped = 0;
  return (fields = {}) => {
    const now = Date.now();
    if (now - last < WARN_EVERY_MS) {
      skipped++;
      return;
    }
    log.warn(msg, skipped > 0 ? { ...fields, skipped } : fields);
    last = now;
    skipped = 0;
  };
}

/**
 * Answers the server's `elicitation/create` (form mode; the SDK refuses URL mode, which Cairn does not
 * declare): the form becomes a question of the call it came during. The wire does not say which call a
 * request belongs to over stdio, so it goes to the newest running call of this connection that its turn
 * waits for (else the newest), and the clocks of all its running calls stop while the user is asked.
 * Unanswered within the server's tool timeout, or its call cancelled, it is answered "cancel"; the call's
 * own clock stops while the user is asked. Bounded, as the server is untrusted: one form at a time per
 * call (another sent meanwhile is answered "cancel" at once) and `formsPerCall` in all.
 */
export function handleElicitations(
  client: Client,
  server: { id: string; name: string; toolTimeoutMs: number },
  calls: () => Iterable<ElicitingCall>,
  log: Logger,
): void {
  const warnOutside = rateLimitedWarn(log, 'mcp elicitation outside a tool call cancelled');
  const warnTooMany = rateLimitedWarn(
    log,
    `mcp elicitation cancelled: one form at a time per call, at most ${ELICITATION_LIMITS.formsPerCall} in all`,
  );
  // Per running call: whether a form of it waits, and how many it asked.
  const asked = new WeakMap<ElicitingCall, { pending: boolean; count: number }>();
  client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const params = request.params;
    if (params.mode === 'url' || !('requestedSchema' in params)) {
      throw new McpError(ErrorCode.InvalidParams, 'Cairn accepts form elicitations only');
    }
    const schema = params.requestedSchema as Record<string, unknown>;
    const fields = Object.keys((schema.properties as object | undefined) ?? {}).length;
    if (
      JSON.stringify(schema).length > ELICITATION_LIMITS.schemaBytes ||
      fields > ELICITATION_LIMITS.fields
    ) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `the form is too large (at most ${ELICITATION_LIMITS.fields} fields and ${ELICITATION_LIMITS.schemaBytes / 1024} KiB of schema)`,
      );
    }
    const running = [...calls()].filter((c) => !c.controller.signal.aborted);
    // The newest waited call (the current turn's) is the likeliest asker; else the newest at all.
    const asking = running.filter((c) => c.elicit).reverse();
    const call = asking.find((c) => !c.background) ?? asking[0];
    if (!call?.elicit) {
      warnOutside({ server: server.name });
      return { action: 'cancel' };
    }
    const forms = asked.get(call) ?? { pending: false, count: 0 };
    asked.set(call, forms);
    if (forms.pending || forms.count >= ELICITATION_LIMITS.formsPerCall) {
      warnTooMany({ server: server.name, pending: forms.pending, asked: forms.count });
      return { action: 'cancel' };
    }
    forms.pending = true;
    forms.count++;
    const message = params.message.slice(0, ELICITATION_LIMITS.messageChars);
    const timer = new AbortController();
    const timeout = setTimeout(
      () =>
        timer.abort(
          new Error(
            `No answer within ${secs(server.toolTimeoutMs)} (the server's tool timeout): the form of MCP server "${server.name}" was cancelled.`,
          ),
        ),
      server.toolTimeoutMs,
    );
    // Which call asked is a guess: every running call of this server waits on the user meanwhile.
    const paused = running;
    for (const c of paused) c.deadline.pause();
    try {
      const answer = await call.elicit(
        message,
        { server_id: server.id, server_name: server.name, requested_schema: schema },
        AbortSignal.any([call.controller.signal, extra.signal, timer.signal]),
      );
      return answer.action === 'accept'
        ? { action: 'accept', content: answer.content ?? {} }
        : { action: answer.action };
    } catch (err) {
      // The wait ended unanswered (timeout, the call or its turn cancelled, the connection gone).
      log.debug('mcp elicitation cancelled', { error: err instanceof Error ? err.message : String(err) });
      return { action: 'cancel' };
    } finally {
      clearTimeout(timeout);
      forms.pending = false;
      // A form left to time out counts toward the call's total limit; time spent answering does not.
      for (const c of paused) c.deadline.resume(timer.signal.aborted);
    }
  });
}
