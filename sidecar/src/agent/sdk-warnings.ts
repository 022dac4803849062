import type Anthropic from '@anthropic-ai/sdk';
import type { Logger } from '../log/logger';

// @anthropic-ai/sdk warns about a deprecated model with console.warn, past its own logger and logLevel,
// in two lines on every request (several per turn). Only the SDK knows which ids are deprecated, so its
// text is caught and becomes one clear line per model per process, in the log and on stderr.
const DEPRECATED_MODEL =
  /^The model '([^']+)' is deprecated and will reach end-of-life on ([^\n]+?)\s*(\n|$)/;

/** What was said already in this process (a model id, or the text of any other SDK warning). */
const reported = new Set<string>();

/**
 * Routes the console warnings the SDK gives while it starts a request (`messages.create`, which
 * `messages.stream` calls too) to `logger` and one stderr line each, instead of console.warn.
 */
export function routeSdkWarnings(client: Anthropic, logger: Logger | undefined): void {
  const messages = client.messages;
  const create = messages.create as (...args: unknown[]) => unknown;
  messages.create = ((...args: unknown[]) => {
    const warnings: string[] = [];
    const consoleWarn = console.warn;
    // The SDK warns synchronously, before the request goes out, so the swap spans only its own code.
    console.warn = (...parts: unknown[]) => {
      warnings.push(parts.map(String).join(' '));
    };
    try {
      return create.apply(messages, args);
    } finally {
      console.warn = consoleWarn;
      for (const warning of warnings) report(warning, logger);
    }
  }) as typeof messages.create;
}

function report(warning: string, logger: Logger | undefined): void {
  const deprecated = DEPRECATED_MODEL.exec(warning);
  const key = deprecated ? deprecated[1]! : warning;
  if (reported.has(key)) return;
  reported.add(key);
  if (deprecated) {
    const [, model, endOfLife] = deprecated;
    logger?.warn('model deprecated', { model, end_of_life: endOfLife });
    process.stderr.write(
      `cairn: Model ${model} is deprecated and reaches end of life on ${endOfLife}: ` +
        'choose a current model in Settings or with `cairn config model add`.\n',
    );
    return;
  }
  logger?.warn('Anthropic SDK warning', { warning });
  process.stderr.write(`cairn: the Anthropic SDK warns: ${warning.replace(/\s*\n\s*/g, ' ')}\n`);
}
