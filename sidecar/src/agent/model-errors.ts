import Anthropic from '@anthropic-ai/sdk';
import { CairnError } from '../errors';
import { redact } from '../log/redact';

/** How far an answer had come when its stream broke: the characters of text kept in the history. */
export interface MidStream {
  keptChars: number;
}

/**
 * Maps what the SDK threw (after its own retries) to a failure a person can act on. `midStream` says the
 * answer had begun streaming: a broken connection then is said as such, with what was kept.
 */
export function toModelFailure(
  error: unknown,
  ctx: { baseUrl: string; model: string },
  midStream?: MidStream,
): CairnError {
  const failure = midStream ? brokenStream(error, ctx, midStream) : classify(error, ctx);
  // Provider and network messages can quote the key; what crosses the wire must not.
  return failure === error
    ? failure
    : new CairnError(failure.code, redact(failure.message), { cause: error });
}

function classify(error: unknown, ctx: { baseUrl: string; model: string }): CairnError {
  if (error instanceof CairnError) return error;
  if (error instanceof Anthropic.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const what = error instanceof Anthropic.APIConnectionTimeoutError ? 'timed out' : 'failed';
    return new CairnError(
      'model_unreachable',
      `The connection to the model provider at ${ctx.baseUrl} ${what}${cause}. ` +
        'Check the base URL in the model config, your network, and HTTPS_PROXY/NO_PROXY.',
    );
  }
  if (error instanceof Anthropic.APIError) {
    const type = errorType(error);
    const detail = errorMessage(error);
    if (error.status === 401 || type === 'authentication_error') {
      return new CairnError(
        'model_auth',
        `The model provider at ${ctx.baseUrl} rejected the API key (${detail}). ` +
          'Set a valid key in Settings, with `cairn config model set-key`, or in CAIRN_ANTHROPIC_API_KEY.',
      );
    }
    if (error.status === 403 || type === 'permission_error') {
      return new CairnError('model_auth', `The API key may not use model ${ctx.model} (${detail}).`);
    }
    if (error.status === 529 || type === 'overloaded_error') {
      return new CairnError(
        'model_overloaded',
        `The model provider is overloaded (${detail}). Retries did not help; try again in a minute.`,
      );
    }
    if (error.status === 429 || type === 'rate_limit_error') {
      return new CairnError(
        'model_rate_limited',
        `The model provider's rate limit was reached (${detail}). Wait, then retry.`,
      );
    }
    if (error.status === 404 || type === 'not_found_error') {
      return new CairnError(
        'model_error',
        `Model ${ctx.model} was not found at ${ctx.baseUrl} (${detail}). Check the model name and base URL.`,
      );
    }
    if (/prompt is too long|context window|too many tokens/i.test(detail)) {
      return new CairnError(
        'context_window_exceeded',
        `The conversation no longer fits the model's context window (${detail}). Start a new session.`,
      );
    }
    return new CairnError(
      'model_error',
      `The model provider answered with an error${error.status ? ` (HTTP ${error.status})` : ''}: ${detail}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CairnError('model_error', `The model request failed: ${message}`);
}

/**
 * A failure after the answer began: a provider's error event keeps its own meaning; anything else (the
 * connection reset, the stream ending before its last event) means the connection dropped mid-answer.
 */
function brokenStream(
  error: unknown,
  ctx: { baseUrl: string; model: string },
  midStream: MidStream,
): CairnError {
  const kept =
    midStream.keptChars > 0
      ? `The ${midStream.keptChars} characters of the answer received before that are kept in the history; send a message (for example "continue") and the model carries on from there.`
      : 'Nothing of the answer had arrived as text, so nothing was kept; send the message again.';
  if (error instanceof CairnError) return error;
  if (error instanceof Anthropic.APIError && !(error instanceof Anthropic.APIConnectionError)) {
    const failure = classify(error, ctx);
    return new CairnError(failure.code, `${failure.message} This happened during the answer. ${kept}`);
  }
  const reason =
    error instanceof Error
      ? error.cause instanceof Error
        ? error.cause.message
        : error.message
      : String(error);
  return new CairnError(
    'model_unreachable',
    `The connection to the model provider at ${ctx.baseUrl} dropped during the answer (${reason}). ${kept}`,
  );
}

function errorBody(
  error: InstanceType<typeof Anthropic.APIError>,
): { type?: string; message?: string } | null {
  const body = error.error as
    | { error?: { type?: string; message?: string }; type?: string; message?: string }
    | undefined;
  if (!body || typeof body !== 'object') return null;
  return body.error ?? body;
}

function errorType(error: InstanceType<typeof Anthropic.APIError>): string | undefined {
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' ? type : errorBody(error)?.type;
}

function errorMessage(error: InstanceType<typeof Anthropic.APIError>): string {
  // The SDK puts the provider's own text in apiMessage; .message carries the raw body.
  const api = (error as { apiMessage?: unknown }).apiMessage;
  return typeof api === 'string' && api ? api : (errorBody(error)?.message ?? error.message);
}
