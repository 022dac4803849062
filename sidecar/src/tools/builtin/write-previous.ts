import fs from 'node:fs/promises';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../../config/owner-only-files';

/** The file beside a Write call's result holding the text it replaced, so its card can show a diff. */
export const PREVIOUS_CONTENT_FILE = 'previous';

/** Larger files are replaced without keeping their old text: the card then shows the new file only. */
const PREVIOUS_MAX_BYTES = 1_000_000;

/**
 * The text of a file about to be replaced, or null when it is not worth a diff: too large, binary (a NUL
 * byte) or not valid UTF-8. Read before the write; nothing is kept if the write then fails.
 */
export async function readReplacedText(file: string, size: number): Promise<string | null> {
  if (size > PREVIOUS_MAX_BYTES) return null;
  try {
    const bytes = await fs.readFile(file);
    if (bytes.length > PREVIOUS_MAX_BYTES || bytes.includes(0)) return null;
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Unreadable or not UTF-8: the write goes on, the card just has no diff.
    return null;
  }
}

/** Keeps the replaced text owner-only in the call's folder; false when it could not be written. */
export function savePreviousContent(resultsDir: string, toolCallId: string, text: string): boolean {
  try {
    writeOwnerOnlyFile(path.join(resultsDir, toolCallId, PREVIOUS_CONTENT_FILE), text);
    return true;
  } catch {
    // Only the card's diff depends on it; the file itself was written.
    return false;
  }
}
