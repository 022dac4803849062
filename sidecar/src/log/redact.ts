import { knownSecrets } from '../secrets/known-secrets';

const R = '[REDACTED]';

// Field names whose string values are credentials wherever they appear in JSON.
const SECRET_FIELDS =
  'x-api-key|api[_-]?key|authorization|token|access_token|refresh_token|key|password|secret';

/** Credential shapes redacted even when the value was never registered. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // "field":"value" in JSON text.
  [new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${R}"`],
  // The same inside a JSON string that is itself a field value: {\"token\":\"value\"}.
  [new RegExp(`(\\\\"(?:${SECRET_FIELDS})\\\\"\\s*:\\s*)\\\\"(?:(?!\\\\").)*\\\\"`, 'gi'), `$1\\"${R}\\"`],
  // Anthropic-style and other `sk-` API keys.
  [/\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}/g, R],
  // Header lines in plain text (`Authorization: Basic ...`), keeping the scheme name for readability.
  [
    /\b((?:proxy-)?authorization|x-api-key)(\s*[:=]\s*)(?!["\\])((?:Bearer|Basic|Token)\s+)?[^\s"',;&]+/gi,
    `$1$2$3${R}`,
  ],
  // Bearer tokens anywhere else.
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{4,}/gi, `$1${R}`],
  // Tokens in URLs, e.g. the renderer's http://127.0.0.1:port/#token=...
  [/([#?&](?:token|access_token|api_key|key)=)[^&#\s"'\\]+/gi, `$1${R}`],
];

/** Removes registered secrets and credential-shaped substrings from text bound for a log. */
export function redact(text: string): string {
  let out = text;
  for (const secret of knownSecrets()) {
    out = replaceAll(out, secret);
    // Inside serialized JSON the secret may appear escaped.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = replaceAll(out, escaped);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function replaceAll(text: string, needle: string): string {
  return text.includes(needle) ? text.split(needle).join(R) : text;
}
