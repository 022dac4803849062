import type { Usage } from '../protocol';

/** A model config's prices in US dollars per million tokens; null where not set. */
export interface Prices {
  price_input: number | null;
  price_output: number | null;
  price_cache_read: number | null;
  price_cache_write: number | null;
}

/**
 * The estimated cost of `usage` in US dollars, or null when the config names neither an input nor an
 * output price. Unset cache prices follow Anthropic's pricing of the input price: reads at a tenth,
 * writes at 1.25×; any other unset price counts as nothing.
 */
export function estimateCost(usage: Usage, prices: Prices): number | null {
  if (prices.price_input === null && prices.price_output === null) return null;
  const input = prices.price_input ?? 0;
  const cacheRead = prices.price_cache_read ?? input * 0.1;
  const cacheWrite = prices.price_cache_write ?? input * 1.25;
  const dollars =
    usage.input_tokens * input +
    usage.output_tokens * (prices.price_output ?? 0) +
    usage.cache_read_input_tokens * cacheRead +
    usage.cache_creation_input_tokens * cacheWrite;
  return dollars / 1_000_000;
}
