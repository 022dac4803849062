/**
 * A conservative token estimate without a tokenizer: about 3.5 characters per token for
 * English and code, counted on the JSON the API receives. Used to refuse a request that cannot
 * fit before sending it; the API's own count stays authoritative.
 */
const CHARS_PER_TOKEN = 3.5;

export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
