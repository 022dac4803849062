import { parseArgs } from 'node:util';
import { openApplication } from '../application/composition-root';
import type { ModelService } from '../application/models/model-service';
import { resolveDataDir } from '../config/data-dir';
import { CreateModelRequest, type ModelConfig } from '../protocol';
import { EXIT, parseIntFlag, UsageError } from './usage';

/** `cairn config model list|add|activate|set-key`. */
export async function configCommand(args: string[]): Promise<number> {
  const [area, action, ...rest] = args;
  if (area !== 'model') throw new UsageError('Expected `cairn config model list|add|activate|set-key`.');
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
      activate: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (!['list', 'add', 'activate', 'set-key'].includes(action ?? '')) {
    throw new UsageError(`Unknown action "${action ?? ''}": use list, add, activate or set-key.`);
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
        const parsed = CreateModelRequest.safeParse({
          name: values.name,
          model: values.model,
          base_url: values['base-url'],
          context_window: parseIntFlag('context-window', values['context-window']),
          max_tokens: parseIntFlag('max-tokens', values['max-tokens']),
          thinking_budget: parseIntFlag('thinking-budget', values['thinking-budget']),
        });
        if (!parsed.success) {
          throw new UsageError(
            parsed.error.issues
              .map((i) => `--${String(i.path[0] ?? '').replace('_', '-')}: ${i.message}`)
              .join('; '),
          );
        }
        let created = await models.create(parsed.data);
        if (values.activate) created = await models.activate(created.id);
        process.stdout.write(
          `Added model config ${created.name} (${created.id})${created.active ? ', active' : ''}.\n`,
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
        `context ${m.context_window}, max ${m.max_tokens}  key ${m.has_key ? 'set' : 'not set'}  (${m.id})\n`,
    );
  }
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
