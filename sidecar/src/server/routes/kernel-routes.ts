import type { FastifyInstance } from 'fastify';
import {
  type KernelExecuteAccepted,
  KernelExecuteRequest,
  KernelInputReplyRequest,
  type KernelInterruptResult,
  type KernelList,
  KernelName,
  type KernelVariableList,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type KernelParams = { Params: { id: string; name: string } };

/** What an artifact may do when a browser renders it: nothing (no scripts, no requests, no forms). */
const ARTIFACT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

export function registerKernelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const kernels = () => ctx.services.kernels();
  const kernelName = (raw: string): string => parse(KernelName, raw);

  app.get<{ Params: { id: string } }>(
    '/api/sessions/:id/kernels',
    async (req): Promise<KernelList> => ({ kernels: kernels().list(req.params.id) }),
  );

  app.post<KernelParams>('/api/sessions/:id/kernels/:name/execute', async (req, reply) => {
    const service = kernels();
    const name = kernelName(req.params.name);
    const body = parse(KernelExecuteRequest, req.body);
    const accepted: KernelExecuteAccepted = { kernel: await service.execute(req.params.id, name, body.code) };
    return reply.code(202).send(accepted);
  });

  app.post<KernelParams>('/api/sessions/:id/kernels/:name/input', async (req, reply) => {
    const service = kernels();
    const name = kernelName(req.params.name);
    const body = parse(KernelInputReplyRequest, req.body);
    service.reply(req.params.id, name, body.request_id, body.value);
    return reply.code(204).send();
  });

  app.post<KernelParams>(
    '/api/sessions/:id/kernels/:name/interrupt',
    async (req): Promise<KernelInterruptResult> => ({
      interrupted: kernels().interrupt(req.params.id, kernelName(req.params.name)),
    }),
  );

  app.post<KernelParams>('/api/sessions/:id/kernels/:name/restart', async (req) => ({
    kernel: await kernels().restart(req.params.id, kernelName(req.params.name)),
  }));

  app.get<KernelParams>(
    '/api/sessions/:id/kernels/:name/variables',
    async (req): Promise<KernelVariableList> => ({
      variables: await kernels().variables(req.params.id, kernelName(req.params.name)),
    }),
  );

  app.get<KernelParams>('/api/sessions/:id/kernels/:name/notebook', async (req, reply) => {
    const name = kernelName(req.params.name);
    const notebook = kernels().notebook(req.params.id, name);
    return reply
      .type('application/x-ipynb+json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.ipynb"`)
      .send(JSON.stringify(notebook, null, 1));
  });

  app.get<{ Params: { id: string } }>('/api/artifacts/:id', async (req, reply) => {
    const artifact = kernels().artifact(req.params.id);
    const textual =
      artifact.mime.startsWith('text/') || artifact.mime.endsWith('+xml') || artifact.mime.endsWith('/json');
    return reply
      .type(textual ? `${artifact.mime}; charset=utf-8` : artifact.mime)
      .header('content-length', String(artifact.bytes))
      .header('content-security-policy', ARTIFACT_CSP)
      .header('content-disposition', 'inline')
      .header('cache-control', 'private, no-store')
      .send(artifact.open());
  });
}
