import { randomBytes } from 'node:crypto';
import { badRequest } from '../../errors';

/** How many hits one search ranks and pages through at most. */
export const MAX_RANKED = 1000;
const KEEP = 64;
const TTL_MS = 15 * 60_000;

interface Ranking {
  /** The search it ranks (query and filters): a cursor is refused for another one. */
  key: string;
  ids: number[];
  at: number;
}

/**
 * Rankings of recent searches, kept so their pages do not move: scores change as anything is written
 * (bm25 weighs each word by how rare it is in the whole index), so a cursor made of the last hit's score
 * would skip or repeat hits. A page's `next_before` names a ranking and an offset into it; a ranking that
 * was dropped (old, or the server restarted) is ranked again and read from the same offset.
 */
export class SearchRankings {
  private readonly rankings = new Map<string, Ranking>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps a new ranking; returns its token. */
  keep(key: string, ids: number[]): string {
    this.prune();
    const token = randomBytes(9).toString('base64url');
    this.rankings.set(token, { key, ids, at: this.now() });
    return token;
  }

  get(token: string, key: string): number[] | null {
    const ranking = this.rankings.get(token);
    if (!ranking || this.now() - ranking.at > TTL_MS) return null;
    if (ranking.key !== key) throw badCursor('it belongs to another search');
    return ranking.ids;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, ranking] of this.rankings) {
      if (now - ranking.at > TTL_MS) this.rankings.delete(token);
    }
    while (this.rankings.size >= KEEP) this.rankings.delete(this.rankings.keys().next().value!);
  }
}

export interface SearchCursor {
  token: string;
  offset: number;
}

/** Opaque to clients: base64url of the ranking's token and the offset of the next page. */
export const encodeCursor = (cursor: SearchCursor): string =>
  Buffer.from(JSON.stringify([cursor.token, cursor.offset])).toString('base64url');

export function decodeCursor(value: string): SearchCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      Number.isSafeInteger(parsed[1]) &&
      (parsed[1] as number) >= 0
    ) {
      return { token: parsed[0], offset: parsed[1] as number };
    }
  } catch {
    // Falls through to the error below.
  }
  throw badCursor('it is not one this server gave');
}

const badCursor = (why: string) =>
  badRequest(
    `before is not usable (${why}): pass the next_before of the previous page, with the same query.`,
  );
