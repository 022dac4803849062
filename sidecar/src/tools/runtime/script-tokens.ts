import { createHash, randomBytes } from 'node:crypto';

/** What a script's token lets it do: call tools in one session, as children of one running call. */
export interface ScriptGrant {
  sessionId: string;
  /** The call whose process holds the token (a Bash, Exec or execute_code call). */
  callId: string;
}

/**
 * The tokens of running calls' scripts. A token is valid for its session only while its call runs: it is
 * revoked when the call ends or is cancelled. Only a hash of each token is kept, so lookups do not compare
 * secrets character by character.
 */
export class ScriptTokens {
  private readonly byHash = new Map<string, ScriptGrant>();
  private readonly byCall = new Map<string, string>();

  mint(grant: ScriptGrant): string {
    this.revoke(grant.callId);
    const token = `cts_${randomBytes(32).toString('base64url')}`;
    const hash = digest(token);
    this.byHash.set(hash, grant);
    this.byCall.set(grant.callId, hash);
    return token;
  }

  /** The grant a token carries; null when it was never minted here or is revoked. */
  resolve(token: string | null | undefined): ScriptGrant | null {
    if (!token) return null;
    return this.byHash.get(digest(token)) ?? null;
  }

  revoke(callId: string): void {
    const hash = this.byCall.get(callId);
    if (hash === undefined) return;
    this.byCall.delete(callId);
    this.byHash.delete(hash);
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
