import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../config/owner-only-files';
import type { Logger } from '../log/logger';
import type { MimeBundle } from './driver-messages';
import type { RichOutput, SavedArtifact } from './kernel-types';

/** The MIME types saved as files, their extension, and whether the driver sends them as base64. */
const SAVED_TYPES: Record<string, { ext: string; base64: boolean }> = {
  'image/png': { ext: '.png', base64: true },
  'image/jpeg': { ext: '.jpg', base64: true },
  'image/gif': { ext: '.gif', base64: true },
  'image/svg+xml': { ext: '.svg', base64: false },
  'application/pdf': { ext: '.pdf', base64: true },
  'text/html': { ext: '.html', base64: false },
  'text/markdown': { ext: '.md', base64: false },
  'text/latex': { ext: '.tex', base64: false },
  'application/json': { ext: '.json', base64: false },
};

/**
 * Saves the rich parts of MIME bundles as files in one folder, named by a fresh id, so events and results
 * carry ids and paths instead of base64. Writes synchronously: the files exist before the event that names
 * them is sent, and events keep their order. Files are the user's data: readable by the owner only.
 */
export class ArtifactStore {
  constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Never throws (it runs inside the kernel's output handler): what cannot be saved (disk full, no
   * permission) is left out, logged, and named in a note after the plain text.
   */
  save(bundle: MimeBundle): RichOutput {
    const artifacts: SavedArtifact[] = [];
    const failed: string[] = [];
    let reason = '';
    for (const [mime, value] of Object.entries(bundle)) {
      const kind = SAVED_TYPES[mime];
      if (!kind) continue;
      const id = `art_${randomBytes(12).toString('base64url')}`;
      const file = path.join(this.dir, id + kind.ext);
      try {
        const bytes = kind.base64 ? Buffer.from(value, 'base64') : Buffer.from(value, 'utf8');
        writeOwnerOnlyFile(file, bytes);
        artifacts.push({ id, path: file, mime, bytes: bytes.length });
      } catch (err) {
        failed.push(mime);
        reason = err instanceof Error ? err.message : String(err);
        this.logger.warn('could not save a kernel output', { dir: this.dir, mime, error: reason });
      }
    }
    const text = bundle['text/plain'] ?? null;
    if (failed.length === 0) return { text, artifacts };
    const note = `[Cairn could not save the ${failed.join(', ')} output (${reason}); free disk space or fix the permissions of ${this.dir}.]`;
    return { text: text === null ? note : `${text}\n${note}`, artifacts };
  }
}
