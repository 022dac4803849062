import type { FastifyInstance } from 'fastify';
import type { About, Capabilities, Health } from '../../protocol';
import type { ServerContext } from '../server-context';

export function registerMetaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { info } = ctx.services;
  app.get('/api/health', async (): Promise<Health> => info.health());
  app.get('/api/about', async (): Promise<About> => info.about());
  app.get('/api/capabilities', async (): Promise<Capabilities> => info.capabilities(ctx.mode));
}
