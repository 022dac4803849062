// Credential-bearing text as failing libraries quote it (a URL's password, secret query and form
// parameters, headers, API keys), each with the value that must not reach a log or the wire.
export const LEAKS: [text: string, secret: string][] = [
  ['fetch failed: https://alice:hunter2-pass@proxy.example:8080/v1', 'hunter2-pass'],
  ['connect postgres://svc:p%40ss.word@db:5432/app refused', 'p%40ss.word'],
  ['GET https://api.example/v1?x=1&api_key=AKIAQUERYKEY123', 'AKIAQUERYKEY123'],
  ['GET /cb?token=tok-value-123', 'tok-value-123'],
  ['GET /cb?key=plain-key-value', 'plain-key-value'],
  ['GET /cb?secret=the-secret-value', 'the-secret-value'],
  ['GET /cb?password=the-password-value', 'the-password-value'],
  ['GET /cb?access_token=access-token-value', 'access-token-value'],
  ['POST body grant_type=x&client_secret=client-secret-value', 'client-secret-value'],
  ['GET /cb?refresh_token=refresh-token-value', 'refresh-token-value'],
  ['retrying with Bearer eyJhbGciOi.payload.signature', 'eyJhbGciOi.payload.signature'],
  ['header Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
  ['401 for key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'AbCdEfGhIjKlMnOp'],
  ['a short Anthropic key sk-ant-abc12', 'abc12'],
];
