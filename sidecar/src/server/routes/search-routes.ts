import type { FastifyInstance } from 'fastify';
import { SearchQuery, type SearchResult } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

/** Full-text search over every session, one project's or one session's. */
export function registerSearchRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { search } = ctx.services;

  app.get('/api/search', async (req): Promise<SearchResult> => search.search(parse(SearchQuery, req.query)));
}
