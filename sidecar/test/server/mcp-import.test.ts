import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpImportPreview, McpImportResult, McpServerList } from '../../src/protocol';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import { useKeyringInProcess } from '../support/keyring-in-process';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../mcp/fixtures');
const TOKEN = 'ghp_import-secret-0123456789abcdef';

type ErrorBody = { error: { code: string; message: string } };

describe('POST /api/mcp/import (preview, then confirm)', () => {
  useKeyringInProcess();
  let h: Harness;
  let projectId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ projectId } = await h.newSession());
    // The project's own VS Code config, found at its usual place.
    fs.mkdirSync(path.join(h.projectDir, '.vscode'));
    fs.copyFileSync(path.join(FIXTURES, 'vscode-mcp.jsonc'), path.join(h.projectDir, '.vscode', 'mcp.json'));
  });
  afterAll(async () => h?.close());

  it('previews every server of the file with its command and questions, creating nothing', async () => {
    const res = await h.api<McpImportPreview>('POST', '/api/mcp/import', {
      source: 'vscode',
      project_id: projectId,
    });
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(path.join(fs.realpathSync(h.projectDir), '.vscode', 'mcp.json'));
    expect(res.body.candidates.map((c) => c.name).sort()).toEqual([
      'everything',
      'filesystem',
      'github',
      'perplexity',
    ]);
    const github = res.body.candidates.find((c) => c.name === 'github')!;
    expect(github.server).toMatchObject({
      transport: 'streamable_http',
      url: 'https://api.githubcopilot.com/mcp/',
    });
    expect(github.questions).toEqual(['input:github-token']);
    expect(res.body.questions.find((q) => q.id === 'input:github-token')).toMatchObject({ password: true });
    const everything = res.body.candidates.find((c) => c.name === 'everything')!;
    expect(everything.server.command).toBe('npx -y @modelcontextprotocol/server-everything');
    expect((await h.api<McpServerList>('GET', '/api/mcp/servers')).body.servers).toEqual([]);
  });

  it('imports only the chosen servers, disabled, with a password answer kept as a secret', async () => {
    const res = await h.api<McpImportResult>('POST', '/api/mcp/import', {
      source: 'vscode',
      project_id: projectId,
      confirm: {
        servers: ['github', 'everything'],
        answers: { 'input:github-token': { secret: TOKEN }, 'input:log-level': 'debug' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.imported.map((s) => s.name).sort()).toEqual(['everything', 'github']);
    const github = res.body.imported.find((s) => s.name === 'github')!;
    expect(github).toMatchObject({ enabled: false, bearer_token: { secret: true, has_value: true } });
    expect(res.body.imported.find((s) => s.name === 'everything')!.env).toEqual({ LOG_LEVEL: 'debug' });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    const all = (await h.api<McpServerList>('GET', '/api/mcp/servers')).body.servers;
    expect(all.map((s) => s.name).sort()).toEqual(['everything', 'github']);

    // Importing again is refused: the names exist, and nothing is half-done.
    const again = await h.api<ErrorBody>('POST', '/api/mcp/import', {
      source: 'vscode',
      project_id: projectId,
      confirm: { servers: ['github'], answers: { 'input:github-token': { secret: TOKEN } } },
    });
    expect(again.status).toBe(400);
    expect((await h.api<McpServerList>('GET', '/api/mcp/servers')).body.servers).toHaveLength(2);

    await h.server.stop();
    for (const file of allFiles(h.dataDir)) {
      expect(fs.readFileSync(file).includes(TOKEN), `${file} holds the token`).toBe(false);
    }
    await h.restart();
  });

  it('names what is missing: unanswered questions, an unknown server, no config where it looks', async () => {
    const unanswered = await h.api<ErrorBody>('POST', '/api/mcp/import', {
      source: 'vscode',
      project_id: projectId,
      confirm: { servers: ['perplexity'] },
    });
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.error.message).toContain('input:perplexity-key');
    const unknown = await h.api<ErrorBody>('POST', '/api/mcp/import', {
      source: 'vscode',
      project_id: projectId,
      confirm: { servers: ['nope'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('nope');
    const missing = await h.api<ErrorBody>('POST', '/api/mcp/import', {
      source: 'claude_code',
      project_id: projectId,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('.mcp.json');
  });

  it('reads each of the four formats from a chosen file', async () => {
    for (const [source, file] of [
      ['claude_desktop', 'claude_desktop_config.json'],
      ['cursor', 'cursor-mcp.json'],
      ['claude_code', 'claude-code-mcp.json'],
    ] as const) {
      const res = await h.api<McpImportPreview>('POST', '/api/mcp/import', {
        source,
        path: path.join(FIXTURES, file),
      });
      expect(res.status, source).toBe(200);
      expect(res.body.candidates.length, source).toBeGreaterThan(0);
      for (const c of res.body.candidates) expect(c.server.name).toBeTruthy();
    }
    const pasted = await h.api<McpImportPreview>('POST', '/api/mcp/import', {
      source: 'claude_desktop',
      content: JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'x', '/tmp/a b'] } } }),
    });
    expect(pasted.body.candidates[0]!.server.command).toBe("npx -y x '/tmp/a b'");
    const broken = await h.api<ErrorBody>('POST', '/api/mcp/import', { source: 'cursor', content: '{ nope' });
    expect(broken.status).toBe(400);
  });
});
