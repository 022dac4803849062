import { badRequest } from '../../errors';

/** Where a page of search hits ended: the last hit's score and document id (the ranking's keys). */
export interface SearchCursor {
  score: number;
  id: number;
}

/** Opaque to clients: base64url of the keys, so a page boundary survives new documents being added. */
export const encodeCursor = (cursor: SearchCursor): string =>
  Buffer.from(JSON.stringify([cursor.score, cursor.id])).toString('base64url');

export function decodeCursor(value: string): SearchCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'number' &&
      Number.isFinite(parsed[0]) &&
      Number.isSafeInteger(parsed[1])
    ) {
      return { score: parsed[0], id: parsed[1] as number };
    }
  } catch {
    // Falls through to the error below.
  }
  throw badRequest(
    'before is not a cursor this server gave: pass the next_before of the previous page as it is.',
  );
}
