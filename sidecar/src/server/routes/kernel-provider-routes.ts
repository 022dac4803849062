import type { FastifyInstance } from 'fastify';
import type { KernelProviderService } from '../../agent/kernel-provider-service';
import {
  type KernelProviderSettings,
  type KernelProviderTestResult,
  UpdateKernelProviderRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';
import { requirePart } from './conversation-only';

/** Where new kernels start: GET/PUT the provider, and test a Jupyter Server before saving it. */
export function registerKernelProviderRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const provider = (): KernelProviderService => requirePart(ctx.kernelProvider, 'Python kernels');

  app.get('/api/kernels/provider', async (): Promise<KernelProviderSettings> => provider().get());

  app.put('/api/kernels/provider', async (req): Promise<KernelProviderSettings> => {
    const service = provider();
    return service.update(parse(UpdateKernelProviderRequest, req.body));
  });

  app.post('/api/kernels/provider/test', async (req): Promise<KernelProviderTestResult> => {
    const service = provider();
    return service.test(parse(UpdateKernelProviderRequest, req.body ?? {}));
  });
}
