import type { CreateModelRequest, ModelConfig } from '../../../../sidecar/src/protocol';
import type { Translate } from '../../i18n/i18n';
import '../../i18n/messages/model-compaction';
import '../../i18n/messages/settings';

/** Limits the server enforces (CreateModelRequest); checked here first so mistakes are explained in place. */
const LIMITS = { name: 100, model: 200, contextWindow: 1024, maxTokens: 1, thinking: 1024 } as const;

export interface FormValues {
  name: string;
  model: string;
  baseUrl: string;
  contextWindow: string;
  maxTokens: string;
  thinking: string;
  /** Whether Cairn compacts on its own; off sends compact_threshold null. */
  autoCompact: boolean;
  /** The threshold as a percentage of the usable window, e.g. "80". */
  compactThreshold: string;
  /** Prices in US dollars per million tokens; empty means not set. */
  priceInput: string;
  priceOutput: string;
  priceCacheRead: string;
  priceCacheWrite: string;
}
/** The fields typed into a text box (every one but the checkbox). */
export type TextField = Exclude<keyof FormValues, 'autoCompact'>;
export type FieldErrors = Partial<Record<keyof FormValues, string>>;
type PriceKey = 'price_input' | 'price_output' | 'price_cache_read' | 'price_cache_write';
/**
 * A complete create/update body: the protocol's request with every field decided, and only the prices that
 * say something (set on a new config; changed on an edit), so saving never clears a price it did not touch.
 */
export type ModelInput = Required<Omit<CreateModelRequest, PriceKey>> &
  Partial<Record<PriceKey, number | null>>;

/** The price boxes and the fields they fill, in the form's order. */
export const PRICE_FIELDS = [
  ['priceInput', 'price_input'],
  ['priceOutput', 'price_output'],
  ['priceCacheRead', 'price_cache_read'],
  ['priceCacheWrite', 'price_cache_write'],
] as const satisfies readonly (readonly [keyof FormValues, PriceKey])[];
/** The server's ceiling on a price per million tokens. */
const PRICE_MAX = 100_000;

/** The form's text for a stored price: empty when not set. */
export function priceText(price: number | null | undefined): string {
  return price == null ? '' : String(price);
}

/** "3", "0.30", "$15" or " .5 " as a number; null for empty; NaN when not a price. */
function parsePrice(raw: string): number | null {
  const cleaned = raw.trim().replace(/^\$\s*/, '');
  if (cleaned === '') return null;
  return /^(\d+(\.\d*)?|\.\d+)$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/** Accepts digits with the usual group separators ("200,000", "200 000"); null when not a whole number. */
function parseCount(raw: string): number | null {
  const cleaned = raw.replace(/[\s,_，]/g, '');
  if (!/^\d+$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isSafeInteger(n) ? n : null;
}

/** A stored threshold (0.8) as the percentage the form and the list show (80), without float noise. */
export function thresholdPercent(fraction: number): number {
  return Math.round(fraction * 10_000) / 100;
}

/** "80", "80%" or "62.5" as a fraction (0.8); null unless a number from 1 to 100. */
function parsePercent(raw: string): number | null {
  const cleaned = raw.trim().replace(/\s*[%％]$/, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  const percent = Number(cleaned);
  return percent >= 1 && percent <= 100 ? percent / 100 : null;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks the form like the server would, with messages that say what to do. */
export function validateModelForm(
  values: FormValues,
  t: Translate,
  formatNumber: (n: number) => string,
  /** The config being edited; null for a new one. */
  initial: ModelConfig | null = null,
): { input: ModelInput; errors: null } | { input: null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = values.name.trim();
  const model = values.model.trim();
  const baseUrl = values.baseUrl.trim();
  if (!name) errors.name = t('settings.validation.nameRequired');
  else if (name.length > LIMITS.name)
    errors.name = t('settings.validation.nameTooLong', { max: LIMITS.name });
  if (!model) errors.model = t('settings.validation.modelRequired');
  else if (model.length > LIMITS.model)
    errors.model = t('settings.validation.modelTooLong', { max: LIMITS.model });
  if (baseUrl && !isHttpUrl(baseUrl)) errors.baseUrl = t('settings.validation.baseUrl');

  const contextWindow = parseCount(values.contextWindow);
  if (contextWindow === null) errors.contextWindow = t('settings.validation.integer');
  else if (contextWindow < LIMITS.contextWindow)
    errors.contextWindow = t('settings.validation.contextMin', { min: formatNumber(LIMITS.contextWindow) });

  const maxTokens = parseCount(values.maxTokens);
  if (maxTokens === null) errors.maxTokens = t('settings.validation.integer');
  else if (maxTokens < LIMITS.maxTokens)
    errors.maxTokens = t('settings.validation.maxTokensMin', { min: formatNumber(LIMITS.maxTokens) });
  else if (contextWindow !== null && maxTokens > contextWindow)
    errors.maxTokens = t('settings.validation.maxTokensOverContext', {
      contextWindow: formatNumber(contextWindow),
    });

  let thinking: number | null = null;
  if (values.thinking.trim()) {
    thinking = parseCount(values.thinking);
    if (thinking === null) errors.thinking = t('settings.validation.integer');
    else if (thinking < LIMITS.thinking)
      errors.thinking = t('settings.validation.thinkingMin', { min: formatNumber(LIMITS.thinking) });
    else if (maxTokens !== null && thinking >= maxTokens)
      errors.thinking = t('settings.validation.thinkingOverMax', { maxTokens: formatNumber(maxTokens) });
  }

  const compactThreshold = values.autoCompact ? parsePercent(values.compactThreshold) : null;
  if (values.autoCompact && compactThreshold === null)
    errors.compactThreshold = t('settings.compaction.invalid');

  const prices: Partial<Record<PriceKey, number | null>> = {};
  for (const [field, key] of PRICE_FIELDS) {
    const price = parsePrice(values[field]);
    if (price !== null && Number.isNaN(price)) errors[field] = t('settings.validation.price');
    else if (price !== null && price > PRICE_MAX)
      errors[field] = t('settings.validation.priceMax', { max: formatNumber(PRICE_MAX) });
    else if (initial ? price !== (initial[key] ?? null) : price !== null) prices[key] = price;
  }

  if (Object.keys(errors).length > 0 || contextWindow === null || maxTokens === null) {
    return { input: null, errors };
  }
  return {
    input: {
      name,
      model,
      base_url: baseUrl || null,
      context_window: contextWindow,
      max_tokens: maxTokens,
      thinking_budget: thinking,
      compact_threshold: compactThreshold,
      ...prices,
    },
    errors: null,
  };
}
