import type { FastifyInstance } from 'fastify';
import type { About, Capabilities, Health } from '../../protocol';
import type { ServerContext } from '../server-context';

export function registerMetaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/health', async (): Promise<Health> => ({ ok: true, name: 'cairn', version: ctx.version }));

  app.get(
    '/api/about',
    async (): Promise<About> => ({
      name: 'cairn',
      version: ctx.version,
      data_dir: ctx.dataDir,
      node: process.versions.node,
      platform: process.platform,
    }),
  );

  app.get('/api/capabilities', async (): Promise<Capabilities> => {
    const full = !ctx.conversationOnly;
    return {
      mode: ctx.conversationOnly ? 'conversation-only' : ctx.mode,
      projects: full,
      shell: full,
      files: full,
      kernels: ctx.kernels !== null,
      mcp: ctx.mcpConfig !== null,
      version: ctx.version,
    };
  });
}
