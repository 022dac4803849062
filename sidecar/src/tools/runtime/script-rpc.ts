import type * as z from 'zod/mini';
import { CairnError } from '../../errors';
import {
  SCRIPT_MESSAGE_LIMIT,
  ScriptCallIdRequest,
  ScriptCallRequest,
  ScriptOutputRequest,
  type ScriptReply,
} from '../../protocol';
import type { Store } from '../../store/store';
import type { CallInspector } from './call-inspector';
import type { CallOutcome } from './call-request';
import type { ScriptAnswer, ScriptMessage } from './script-endpoint';
import type { ScriptTokens } from './script-tokens';
import type { SessionToolRuntime } from './session-tool-runtime';

export interface ScriptRpcDeps {
  store: Store;
  tokens: ScriptTokens;
  inspector: CallInspector;
  /** The session's runtime, when it has one now. */
  runtime(sessionId: string): SessionToolRuntime | null;
}

/**
 * What the script endpoint's messages mean: `call` runs a tool as a child of the call that holds the token,
 * `status`, `output` and `cancel` read or stop a call of the same session. Every answer to a valid token is
 * a reply (a denied or failed call has `is_error` true); a missing, unknown or revoked token is 401.
 */
export class ScriptRpc {
  constructor(private readonly deps: ScriptRpcDeps) {}

  readonly handle = async (message: ScriptMessage): Promise<ScriptAnswer> => {
    const grant = this.deps.tokens.resolve(message.token);
    if (!grant) {
      return refusal(
        401,
        'unauthorized',
        message.token
          ? 'This token is not valid now: the call that ran the script has ended or was cancelled.'
          : 'No token: send CAIRN_TOOL_TOKEN as "Authorization: Bearer …".',
      );
    }
    const parent = this.deps.store.toolCalls.get(grant.callId);
    const runtime = this.deps.runtime(grant.sessionId);
    if (!parent || !runtime) return refusal(401, 'unauthorized', 'The session of this token is gone.');
    try {
      switch (message.op) {
        case 'call': {
          const request = parse(ScriptCallRequest, message.body);
          return ok(fromOutcome(await runtime.runForScript(parent, request, message.signal)));
        }
        case 'status': {
          const { call_id } = parse(ScriptCallIdRequest, message.body);
          const status = this.deps.inspector.status(grant.sessionId, call_id);
          const line = `${status.call_id} ${status.name}: ${status.status}`;
          return ok(reply(status, line, status as unknown as Record<string, unknown>));
        }
        case 'output': {
          const { call_id, after } = parse(ScriptOutputRequest, message.body);
          const output = this.deps.inspector.output(grant.sessionId, call_id, after);
          const text = output.pieces.map((p) => p.text).join('');
          const { pieces, ...meta } = output;
          return ok(
            reply(
              { call_id, status: output.status, result_dir: this.resultDir(grant.sessionId, call_id) },
              text,
              { ...meta, pieces: pieces.map((p) => p.number) },
            ),
          );
        }
        case 'cancel': {
          const { call_id } = parse(ScriptCallIdRequest, message.body);
          const { call, cancelled } = await this.deps.inspector.cancel(grant.sessionId, call_id);
          return ok(
            reply(
              { call_id, status: call.status, result_dir: this.resultDir(grant.sessionId, call_id) },
              cancelled ? 'cancelled' : `already ${call.status}`,
              { cancelled },
            ),
          );
        }
        default:
          return refusal(
            404,
            'not_found',
            `Unknown operation "${message.op}": call, status, output or cancel.`,
          );
      }
    } catch (error) {
      // A bad request or an unknown call is a reply the script can read, not a transport failure.
      if (error instanceof CairnError) return ok(errorReply(error.message));
      throw error;
    }
  };

  private resultDir(sessionId: string, callId: string): string {
    return this.deps.inspector.status(sessionId, callId).result_dir;
  }
}

function parse<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  throw new CairnError('bad_request', `Invalid request: ${issues}`);
}

function reply(
  call: { call_id: string; status: ScriptReply['status']; result_dir: string },
  content: string,
  meta: Record<string, unknown>,
): ScriptReply {
  return { ...call, content, is_error: false, meta };
}

function errorReply(message: string): ScriptReply {
  return { call_id: null, status: null, result_dir: null, content: message, is_error: true, meta: {} };
}

/** A reply over the message limit says where the whole result is instead of being refused. */
function fromOutcome(outcome: CallOutcome): ScriptReply {
  const body: ScriptReply = {
    call_id: outcome.callId,
    status: outcome.status,
    result_dir: outcome.resultDir,
    content: outcome.content,
    is_error: outcome.isError,
    meta: { ...outcome.meta, ...(outcome.exitCode !== null ? { exit_code: outcome.exitCode } : {}) },
  };
  if (Buffer.byteLength(outcome.content) <= SCRIPT_MESSAGE_LIMIT - 64 * 1024) return body;
  return {
    ...body,
    content:
      `The result is ${Buffer.byteLength(outcome.content)} bytes, more than a reply may carry (8 MiB); ` +
      `read it from ${outcome.resultFile ?? `${outcome.resultDir}/result.txt`}.`,
    meta: { ...body.meta, truncated: true },
  };
}

function ok(body: ScriptReply): ScriptAnswer {
  return { status: 200, body };
}

function refusal(status: number, code: string, message: string): ScriptAnswer {
  return { status, body: { error: { code, message } } };
}
