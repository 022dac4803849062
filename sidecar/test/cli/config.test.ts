import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/protocol';
import { tempDir } from '../support/harness';
import { killLeftoverClis, runCli } from './cli-process';

// No keychain: no session bus to reach, no display to start one on, no key in the environment.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  DISPLAY: undefined,
  WAYLAND_DISPLAY: undefined,
  CAIRN_ANTHROPIC_API_KEY: undefined,
  CAIRN_DATA_DIR: undefined,
  CAIRN_TOKEN: undefined,
};

let dataDir: string;

beforeEach(() => {
  dataDir = tempDir('config-data');
});

afterEach(async () => {
  await killLeftoverClis();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const config = (...args: string[]) => runCli(['config', 'model', ...args, '--data-dir', dataDir], { env });

async function list(): Promise<ModelConfig[]> {
  const result = await config('list', '--json');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { models: ModelConfig[] }).models;
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn config model', { timeout: 120_000 }, () => {
  it('adds a config that becomes active, lists it, and activate switches by name', async () => {
    const added = await config(
      'add',
      '--name',
      'a',
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9',
      '--context-window',
      '100000',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added model config a');

    expect(await list()).toEqual([
      expect.objectContaining({
        name: 'a',
        model: 'm',
        base_url: 'http://127.0.0.1:9',
        context_window: 100000,
        max_tokens: 8192,
        thinking_budget: null,
        active: true,
        has_key: false,
      }),
    ]);

    const second = await config('add', '--name', 'b', '--model', 'm2', '--max-tokens', '1000');
    expect(second.code).toBe(0);
    let models = await list();
    expect(models.map((m) => [m.name, m.active])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(models[1]).toMatchObject({ base_url: null, context_window: 200_000, max_tokens: 1000 });

    const activated = await config('activate', 'b');
    expect(activated.code).toBe(0);
    models = await list();
    expect(models.map((m) => [m.name, m.active])).toEqual([
      ['a', false],
      ['b', true],
    ]);

    // By id as well; the readable listing marks the active one.
    expect((await config('activate', models[0]!.id)).code).toBe(0);
    const readable = await config('list');
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/^\* a {2}m {2}http:\/\/127\.0\.0\.1:9 .*key not set/m);
    expect(readable.stdout).toMatch(/^ {2}b {2}m2 {2}default endpoint/m);
  });

  it('add --activate makes the new config the active one', async () => {
    expect((await config('add', '--name', 'a', '--model', 'm')).code).toBe(0);
    expect((await config('add', '--name', 'b', '--model', 'm', '--activate')).code).toBe(0);

    expect((await list()).map((m) => [m.name, m.active])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it.each([
    {
      name: 'a non-numeric --context-window',
      args: ['add', '--name', 'a', '--model', 'm', '--context-window', 'x'],
    },
    {
      name: 'a too small --context-window',
      args: ['add', '--name', 'a', '--model', 'm', '--context-window', '10'],
    },
    { name: 'a missing --model', args: ['add', '--name', 'a'] },
    { name: 'a non-http --base-url', args: ['add', '--name', 'a', '--model', 'm', '--base-url', 'ftp://x'] },
    { name: 'an unknown action', args: ['rename', 'a'] },
    { name: 'an unknown flag', args: ['list', '--colour'] },
  ])('exits 2 for $name and adds nothing', async ({ args }) => {
    const result = await config(...args);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
    expect(await list()).toEqual([]);
  });

  it('names the context window in the usage error', async () => {
    const result = await config('add', '--name', 'a', '--model', 'm', '--context-window', 'x');

    expect(result.stderr).toContain('--context-window');
  });

  it('sets the compaction threshold on add and with set, off included; a bad one changes nothing', async () => {
    expect((await config('add', '--name', 'a', '--model', 'm', '--compact-threshold', '0.6')).code).toBe(0);
    expect((await list())[0]).toMatchObject({ name: 'a', compact_threshold: 0.6 });
    expect((await config('list')).stdout).toContain('compacts at 60%');

    for (const bad of ['1.5', '0', 'most']) {
      const refused = await config('set', 'a', '--compact-threshold', bad);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr, bad).toContain('--compact-threshold is a fraction of the usable window');
    }
    const nothing = await config('set', 'a');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
    expect((await list())[0]).toMatchObject({ compact_threshold: 0.6 });

    const off = await config('set', 'a', '--compact-threshold', 'off', '--context-window', '50000');
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Updated model config a');
    expect((await list())[0]).toMatchObject({ compact_threshold: null, context_window: 50_000, model: 'm' });
    expect((await config('list')).stdout).toContain('auto-compaction off');

    expect((await config('add', '--name', 'b', '--model', 'm2')).code).toBe(0);
    const activated = await config('set', 'b', '--activate', '--max-tokens', '2048');
    expect(activated.stdout).toContain('Updated model config b');
    expect(await list()).toEqual([
      expect.objectContaining({ name: 'a', active: false }),
      expect.objectContaining({ name: 'b', active: true, max_tokens: 2048 }),
    ]);
  });

  it('sets prices per million tokens on add and with set, lists them, clears one with off', async () => {
    const added = await config(
      'add',
      '--name',
      'p',
      '--model',
      'm',
      '--price-input',
      '3',
      '--price-output',
      '$15',
    );
    expect(added.code).toBe(0);
    expect((await list())[0]).toMatchObject({ price_input: 3, price_output: 15, price_cache_read: null });
    expect((await config('list')).stdout).toContain('$3 in / $15 out per Mtok');

    const refused = await config('set', 'p', '--price-cache-read=-1');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--price-cache-read is a price in US dollars per million tokens');

    expect((await config('set', 'p', '--price-input', 'off', '--price-cache-write', '3.75')).code).toBe(0);
    expect((await list())[0]).toMatchObject({ price_input: null, price_output: 15, price_cache_write: 3.75 });
  });

  it('activate of an unknown config exits 1', async () => {
    const result = await config('activate', 'nope');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nope');
  });

  it('set-key without a keychain exits 1, points at CAIRN_ANTHROPIC_API_KEY and never shows the key', async () => {
    expect((await config('add', '--name', 'a', '--model', 'm')).code).toBe(0);
    const key = 'sk-ant-never-print-me-0123456789';

    const result = await runCli(['config', 'model', 'set-key', 'a', '--data-dir', dataDir], {
      env,
      input: `${key}\n`,
    });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CAIRN_ANTHROPIC_API_KEY');
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);
    expect((await list())[0]?.has_key).toBe(false);
    // Nor was it written anywhere in the data directory (logs, database).
    for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      expect(fs.readFileSync(file).includes(key), file).toBe(false);
    }
  });

  it('set-key with nothing on standard input is a usage error', async () => {
    expect((await config('add', '--name', 'a', '--model', 'm')).code).toBe(0);

    const result = await runCli(['config', 'model', 'set-key', 'a', '--data-dir', dataDir], {
      env,
      input: '',
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('standard input');
  });
});
