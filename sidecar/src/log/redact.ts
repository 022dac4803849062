import { knownSecrets } from '../secrets/known-secrets';

const R = '[REDACTED]';

// Field names whose string values are credentials wherever they appear in JSON.
const SECRET_FIELDS =
  'x-api-key|api[_-]?key|authorization|token|access_token|refresh_token|key|password|secret';

// `name=value` parameter names (query strings, form bodies, connection strings) whose value is a
// credential: these words alone or with any `prefix_`/`prefix-` (client_secret, refresh_token,
// X-Amz-Signature); `key` only alone or as a known kind of key (`sort_key=` is no secret).
const SECRET_PARAMS =
  '(?:(?:[\\w-]*[_-])?(?:token|secret|password|passwd|signature|credentials?)' +
  '|(?:api|access|secret|private)[_-]?key|apikey|key|sig)';

/** Credential shapes redacted even when the value was never registered. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // "field":"value" in JSON text.
  [new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${R}"`],
  // The same inside a JSON string that is itself a field value: {\"token\":\"value\"}.
  [new RegExp(`(\\\\"(?:${SECRET_FIELDS})\\\\"\\s*:\\s*)\\\\"(?:(?!\\\\").)*\\\\"`, 'gi'), `$1\\"${R}\\"`],
  // Anthropic keys at any length (a truncated one is still a leak), then other `sk-` API keys.
  [/\bsk-ant-[A-Za-z0-9_-]+/g, R],
  [/\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}/g, R],
  // The password of a URL's user info (https://user:pass@host), keeping the user and host.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'\\]*:)[^\s/?#@"'\\]+@/gi, `$1${R}@`],
  // Header lines in plain text (`Authorization: Basic ...`), keeping the scheme name for readability.
  [
    /\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token)(\s*[:=]\s*)(?!["\\])((?:Bearer|Basic|Token|Digest|Negotiate)\s+)?[^\s"',;&]+/gi,
    `$1$2$3${R}`,
  ],
  // Bearer tokens anywhere else.
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{4,}/gi, `$1${R}`],
  // name=value parameters: in URLs (the renderer's http://127.0.0.1:port/#token=...), form bodies and
  // connection strings. The name must stand alone (`monkey=` and `keyboard=` are not keys).
  [new RegExp(`((?:^|[^\\w-])${SECRET_PARAMS}=)[^&#\\s"'\\\\,;]+`, 'gi'), `$1${R}`],
];

/** Removes registered secrets and credential-shaped substrings from text bound for a log or the wire. */
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
