import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Keychain } from './keychain';
import type { RemoteBackend } from './remote-backend';
import { validateRemoteUrl } from './remote-backend';

/** The keychain entry (service 'cairn') that holds the remote backend's token. */
export const REMOTE_TOKEN_ACCOUNT = 'remote-backend-token';

const FILE_NAME = 'remote-backend.json';

/**
 * The remote backend chosen in the app's settings: the URL in a small JSON file in the app's
 * userData folder, the token in the OS keychain. Nothing secret is ever written to the file.
 */
export class RemoteBackendStore {
  readonly filePath: string;

  constructor(
    userDataDir: string,
    private readonly keychain: Keychain,
  ) {
    this.filePath = path.join(userDataDir, FILE_NAME);
  }

  /** The saved backend, or null when none is saved or its token is gone from the keychain. */
  async get(): Promise<RemoteBackend | null> {
    const url = await this.readUrl();
    if (!url) return null;
    const token = await this.keychain.get(REMOTE_TOKEN_ACCOUNT);
    return token ? { url, token } : null;
  }

  /** Saves a backend; the URL is validated (and normalized) first. */
  async set(backend: RemoteBackend): Promise<void> {
    const url = validateRemoteUrl(backend.url);
    // Token first: a URL without its token reads as "nothing saved", never as a half-saved backend.
    await this.keychain.set(REMOTE_TOKEN_ACCOUNT, backend.token);
    await this.writeUrl(url);
  }

  async clear(): Promise<void> {
    await fs.rm(this.filePath, { force: true });
    await this.keychain.delete(REMOTE_TOKEN_ACCOUNT);
  }

  private async readUrl(): Promise<string | null> {
    let text: string;
    try {
      text = await fs.readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as { url?: unknown };
      return typeof parsed.url === 'string' ? validateRemoteUrl(parsed.url) : null;
    } catch {
      // A damaged or hand-edited file: treat as nothing saved rather than refusing to start.
      return null;
    }
  }

  private async writeUrl(url: string): Promise<void> {
    await fs.mkdir(path.dirname(this.filePath), { recursive: true });
    // Write then rename, so a crash mid-write leaves the old file, not a truncated one.
    const temporary = `${this.filePath}.${randomUUID()}.tmp`;
    await fs.writeFile(temporary, `${JSON.stringify({ url }, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(temporary, this.filePath);
  }
}
