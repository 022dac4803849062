// `cairn config mcp …` through the real command line on a local data directory: the shapes of
// /api/mcp/servers, the test connection against a real stdio MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatCommandLine } from '../../src/mcp/command-line';
import { testEnv } from '../support/harness';
import type { ModelServer } from '../support/model-server';
import { REPO_ROOT, runCli, setUpCliTest, tearDownCliTest } from './cli-process';

const ENV_CHECK = path.join(REPO_ROOT, 'sidecar/test/mcp/fixtures/env-check-server.mjs');

let model: ModelServer;
let dataDir: string;
let workspace: string;

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('mcp-config'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, []));

const mcp = (args: string[], input?: string) =>
  runCli(['config', 'mcp', ...args, '--data-dir', dataDir], {
    env: testEnv(model),
    ...(input === undefined ? {} : { input }),
  });

describe('cairn config mcp', { timeout: 120_000 }, () => {
  it('adds a server from standard input, enables, tests, disables, lists and deletes it', async () => {
    const config = {
      name: 'env check',
      transport: 'stdio',
      command: formatCommandLine(process.execPath, [ENV_CHECK]),
    };
    const added = await mcp(['add', '--file', '-'], JSON.stringify(config));
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const id = added.stdout.match(/Added MCP server env check \((\S+)\), disabled/)?.[1];
    expect(id).toBeDefined();

    expect((await mcp(['enable', id!])).stdout).toContain(`MCP server env check (${id}) is enabled`);
    const tested = await mcp(['test', id!, '--json']);
    expect(tested.code).toBe(0);
    expect((JSON.parse(tested.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual([
      'env_digest',
      'cwd',
      'echo',
      'pid',
    ]);
    expect((await mcp(['disable', id!])).code).toBe(0);
    const table = (await mcp(['list'])).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+ENABLED\s+NAME\s+TRANSPORT\s+RUNS$/);
    expect(table[1]).toMatch(new RegExp(`^${id}\\s+no\\s+env check\\s+stdio\\s+.*env-check-server\\.mjs`));

    expect((await mcp(['delete', id!])).stdout).toBe(`Deleted MCP server ${id}.\n`);
    const listed = await mcp(['list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual({ servers: [] });
  });

  it('refuses a file that is not a server config, naming the field and why in English, before opening anything', async () => {
    const file = path.join(workspace, 'server.json');
    fs.writeFileSync(file, JSON.stringify({ name: 'x', transport: 'carrier pigeon' }));
    const refused = await mcp(['add', '--file', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${file} is not an MCP server config (the body of POST /api/mcp/servers): transport: Invalid option: expected one of "stdio"|"streamable_http"`,
    );
    expect(fs.existsSync(path.join(dataDir, 'cairn.db'))).toBe(false);
    const usage = await mcp(['enable']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Expected `cairn config mcp enable ID`.');
  });
});
