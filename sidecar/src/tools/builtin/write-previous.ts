import path from 'node:path';
import { writeOwnerOnlyFile } from '../../config/owner-only-files';
import { GitignoreRules } from '../gitignore-rules';
import { isCaseInsensitivePlatform } from '../path-guard';
import { readRegularFile } from '../regular-file';

/** Larger files are replaced without keeping their old text: the card then shows the new file only. */
export const PREVIOUS_MAX_BYTES = 1_000_000;

/** The file under a session's replaced-text folder that holds what one Write call replaced. */
export function replacedTextFile(dir: string, toolCallId: string): string {
  return path.join(dir, `${toolCallId}.txt`);
}

/**
 * The text of a file about to be replaced, or null when it is not worth a diff or must not be kept: too
 * large, binary (a NUL byte), not valid UTF-8, excluded by the project's .gitignore, or no longer a regular
 * file inside the project (a link or a pipe swapped in since it was checked is never followed or waited
 * on). Read before the write; nothing is kept if the write fails.
 */
export async function readReplacedText(file: string, projectRoot: string): Promise<string | null> {
  // What the project's .gitignore keeps out (a .env, say) is never copied into Cairn's data, as for snapshots.
  if (await new GitignoreRules(projectRoot, isCaseInsensitivePlatform()).ignores(file, false)) return null;
  const bytes = await readRegularFile(file, { maxBytes: PREVIOUS_MAX_BYTES, inside: projectRoot });
  if (bytes === null || bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Not UTF-8: the write goes on, the card just has no diff.
    return null;
  }
}

/** Keeps the replaced text owner-only; false when there is no folder for it or it could not be written. */
export function savePreviousContent(dir: string | undefined, toolCallId: string, text: string): boolean {
  if (!dir) return false;
  try {
    writeOwnerOnlyFile(replacedTextFile(dir, toolCallId), text);
    return true;
  } catch {
    // Only the card's diff depends on it; the file itself was written.
    return false;
  }
}
