import { parseArgs } from 'node:util';
import { openApplication } from '../application/composition-root';
import type { ModelService } from '../application/models/model-service';
import { resolveDataDir } from '../config/data-dir';
import { CreateModelRequest, type ModelConfig, UpdateModelRequest } from '../protocol';
import type { HttpFrontDoor } from './serve-command';
import { EXIT, parseIntFlag, UsageError } from './usage';

const ACTIONS = ['list', 'add', 'set', 'activate', 'set-key'];

/** `cairn config model list|add|set|activate|set-key`; `cairn config mcp …` is mcp-config-command's. */
export async function configCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const [area, action, ...rest] = args;
  if (area === 'mcp') return (await import('./mcp-config-command')).mcpConfigCommand(args.slice(1), http);
  if (area !== 'model') {
    throw new UsageError(
      'Expected `cairn config model list|add|set|activate|set-key` or `cairn config mcp list|add|enable|disable|test|delete`.',
    );
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      name: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'context-window': { type: 'string' },
      'max-tokens': { type: 'string' },
      'thinking-budget': { type: 'string' },
      'compact-threshold': { type: 'string' },
      'price-input': { type: 'string' },
      'price-output': { type: 'string' },
      'price-cache-read': { type: 'string' },
      'price-cache-write': { type: 'string' },
      activate: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (!ACTIONS.includes(action ?? '')) {
    throw new UsageError(`Unknown action "${action ?? ''}": use list, add, set, activate or set-key.`);
  }
  const core = openApplication({
    dataDir: resolveDataDir(values['data-dir']),
    command: `cairn config model ${action}`,
  });
  try {
    const { models } = core.services;
    switch (action) {
      case 'list': {
        const list = (await models.list()).models;
        if (values.json) process.stdout.write(`${JSON.stringify({ models: list }, null, 2)}\n`);
        else printModels(list);
        return EXIT.ok;
      }
      case 'add': {
        const parsed = CreateModelRequest.safeParse(modelFlags(values));
        if (!parsed.success) throw flagError(parsed.error.issues);
        let created = await models.create(parsed.data);
        if (values.activate) created = await models.activate(created.id);
        process.stdout.write(
          `Added model config ${created.name} (${created.id})${created.active ? ', active' : ''}.\n`,
        );
        return EXIT.ok;
      }
      case 'set': {
        const target = find(models, positionals[0]);
        const patch = Object.fromEntries(
          Object.entries(modelFlags(values)).filter(([, value]) => value !== undefined),
        );
        if (Object.keys(patch).length === 0 && !values.activate)
          throw new UsageError(
            'Nothing to change: give --name, --model, --base-url, --context-window, --max-tokens, ' +
              '--thinking-budget, --compact-threshold, --price-input, --price-output, --price-cache-read, ' +
              '--price-cache-write or --activate.',
          );
        const parsed = UpdateModelRequest.safeParse(patch);
        if (!parsed.success) throw flagError(parsed.error.issues);
        let updated = await models.update(target, parsed.data);
        if (values.activate) updated = await models.activate(updated.id);
        process.stdout.write(
          `Updated model config ${updated.name} (${updated.id})${updated.active ? ', active' : ''}.\n`,
        );
        return EXIT.ok;
      }
      case 'activate': {
        const target = find(models, positionals[0]);
        await models.activate(target);
        process.stdout.write(`Model config ${positionals[0]} is now active.\n`);
        return EXIT.ok;
      }
      default: {
        const target = find(models, positionals[0]);
        const key = (await readStdin()).trim();
        if (!key)
          throw new UsageError(
            'Pass the key on standard input, e.g. `cairn config model set-key NAME < keyfile`.',
          );
        await models.setKey(target, key);
        process.stdout.write('The key was stored in the OS keychain.\n');
        return EXIT.ok;
      }
    }
  } finally {
    await core.close();
  }
}

/** The model fields the flags give, as the request bodies name them (absent flags undefined). */
function modelFlags(values: Record<string, string | boolean | undefined>) {
  const text = (name: string) => values[name] as string | undefined;
  return {
    name: text('name'),
    model: text('model'),
    base_url: text('base-url'),
    context_window: parseIntFlag('context-window', text('context-window')),
    max_tokens: parseIntFlag('max-tokens', text('max-tokens')),
    thinking_budget: parseIntFlag('thinking-budget', text('thinking-budget')),
    compact_threshold: parseThreshold(text('compact-threshold')),
    price_input: parsePrice('price-input', text('price-input')),
    price_output: parsePrice('price-output', text('price-output')),
    price_cache_read: parsePrice('price-cache-read', text('price-cache-read')),
    price_cache_write: parsePrice('price-cache-write', text('price-cache-write')),
  };
}

/** US dollars per million tokens; `off` clears the price (null). */
function parsePrice(name: string, value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'off') return null;
  const n = Number(value.trim().replace(/^\$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(
      `--${name} is a price in US dollars per million tokens, 0 or more (e.g. 3), or "off" to clear it (got "${value}").`,
    );
  return n;
}

/** `off` turns automatic compaction off (null); otherwise a fraction of the usable window, 0 < x ≤ 1. */
function parseThreshold(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'off') return null;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1)
    throw new UsageError(
      `--compact-threshold is a fraction of the usable window above 0 and at most 1 (e.g. 0.8), or "off" (got "${value}").`,
    );
  return n;
}

function flagError(issues: { path: PropertyKey[]; message: string }[]): UsageError {
  return new UsageError(
    issues.map((i) => `--${String(i.path[0] ?? '').replaceAll('_', '-')}: ${i.message}`).join('; '),
  );
}

function find(models: ModelService, idOrName: string | undefined): string {
  if (!idOrName) throw new UsageError('Name the model config (its id or name).');
  return models.find(idOrName);
}

function printModels(list: ModelConfig[]): void {
  if (list.length === 0) {
    process.stdout.write(
      'No model configs yet. Add one with `cairn config model add --name NAME --model MODEL`.\n',
    );
    return;
  }
  for (const m of list) {
    process.stdout.write(
      `${m.active ? '*' : ' '} ${m.name}  ${m.model}  ${m.base_url ?? 'default endpoint'}  ` +
        `context ${m.context_window}, max ${m.max_tokens}, ` +
        `${m.compact_threshold === null ? 'auto-compaction off' : `compacts at ${Math.round(m.compact_threshold * 100)}%`}  key ${m.has_key ? 'set' : 'not set'}${pricesText(m)}  (${m.id})\n`,
    );
  }
}

/** `  $3 in / $15 out / $0.3 cache read / $3.75 cache write per Mtok`, the prices that are set. */
function pricesText(m: ModelConfig): string {
  const parts = [
    [m.price_input, 'in'],
    [m.price_output, 'out'],
    [m.price_cache_read, 'cache read'],
    [m.price_cache_write, 'cache write'],
  ].flatMap(([price, label]) => (price === null ? [] : [`$${price} ${label}`]));
  return parts.length === 0 ? '' : `  ${parts.join(' / ')} per Mtok`;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    process.stderr.write(
      `Paste the API key, then press Enter and ${process.platform === 'win32' ? 'Ctrl+Z, Enter' : 'Ctrl+D'}:\n`,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
