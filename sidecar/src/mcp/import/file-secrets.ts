/**
 * Literal credentials in an imported file (a token written straight into `env` or a header) must not land in
 * Cairn's database, nor go back out in the preview. The preview shows them as `{"secret":true}`; the values ride
 * along under a symbol key, which JSON and zod leave out, so only the in-process confirm step can store them.
 */
export const FILE_SECRETS: unique symbol = Symbol('mcp import file secrets');

export interface FileSecret {
  /** The name the server's config marks `{"secret":true}`: an env variable, a header, or `bearer_token`. */
  name: string;
  value: string;
}

const CREDENTIAL_ENV =
  /(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|(^|_)PAT$|(^|_)KEY$)/i;
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|token|key|secret|auth|password/i;

/** Whether a literal value under this name is a credential. */
export function looksLikeCredential(kind: 'env' | 'header', name: string): boolean {
  return (kind === 'env' ? CREDENTIAL_ENV : CREDENTIAL_HEADER).test(name);
}
