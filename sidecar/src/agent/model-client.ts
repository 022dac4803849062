import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import type { Logger } from '../log/logger';
import type { ModelSettings } from './model-settings';
import { routeSdkWarnings } from './sdk-warnings';

export interface ModelClientOptions {
  /** The SDK's own retry policy; we configure it rather than wrap it in a second loop. */
  maxRetries: number;
  timeoutMs?: number;
  /** Where the SDK's warnings (a deprecated model) are logged, besides one line on stderr. */
  logger?: Logger;
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
let proxyAgent: { key: string; agent: EnvHttpProxyAgent } | null = null;

/** One agent (and connection pool) per proxy setting; a changed environment gets a new one. */
function agentForEnvironment(): EnvHttpProxyAgent {
  const key = PROXY_VARS.map((name) => process.env[name] ?? '').join('\n');
  if (proxyAgent?.key !== key) proxyAgent = { key, agent: new EnvHttpProxyAgent() };
  return proxyAgent.agent;
}

/** The SDK client for one model config: key and base URL explicit, HTTPS_PROXY/NO_PROXY honoured. */
export function createModelClient(settings: ModelSettings, options: ModelClientOptions): Anthropic {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs ?? 10 * 60 * 1000,
    // Node's global fetch ignores proxy variables; undici's fetch with an env-aware agent does not.
    fetch: undiciFetch as unknown as typeof globalThis.fetch,
    fetchOptions: { dispatcher: agentForEnvironment() } as unknown as ClientOptions['fetchOptions'],
    logLevel: 'off',
  });
  routeSdkWarnings(client, options.logger);
  return client;
}
