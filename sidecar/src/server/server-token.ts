import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { registerSecret } from '../secrets/known-secrets';

/** The server's access token: CAIRN_TOKEN, else one generated once and kept in a mode-0600 file. */
export function resolveServerToken(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CAIRN_TOKEN?.trim();
  if (fromEnv) {
    registerSecret(fromEnv);
    return fromEnv;
  }
  const file = path.join(dataDir, 'token');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) {
      fs.chmodSync(file, 0o600);
      registerSecret(existing);
      return existing;
    }
  } catch {
    // No token yet: make one.
  }
  const token = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  registerSecret(token);
  return token;
}
