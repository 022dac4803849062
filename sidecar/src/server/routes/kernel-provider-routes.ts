import type { FastifyInstance } from 'fastify';
import {
  type KernelProviderSettings,
  type KernelProviderTestResult,
  UpdateKernelProviderRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

/** Where new kernels start: GET/PUT the provider, and test a Jupyter Server before saving it. */
export function registerKernelProviderRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { services } = ctx;

  app.get(
    '/api/kernels/provider',
    async (): Promise<KernelProviderSettings> => services.kernelProvider().get(),
  );

  app.put('/api/kernels/provider', async (req): Promise<KernelProviderSettings> => {
    const provider = services.kernelProvider();
    return provider.update(parse(UpdateKernelProviderRequest, req.body));
  });

  app.post('/api/kernels/provider/test', async (req): Promise<KernelProviderTestResult> => {
    const provider = services.kernelProvider();
    return provider.test(parse(UpdateKernelProviderRequest, req.body ?? {}));
  });
}
