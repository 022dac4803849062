// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/mcp/command-line';
import { confirmImport, previewImport } from '../../src/mcp/import';
import { MCP_BEARER_SECRET } from '../../src/protocol/mcp';
import { fixture } from './import-fixture';

const file = fixture('vscode-mcp.jsonc');

describe('import from VS Code', () => {
  const preview = previewImport('vscode', file.text, '/work/app/.vscode/mcp.json', ['everything']);
  const byName = Object.fromEntries(preview.candidates.map((c) => [c.name, c]));

  it('reads JSONC with comments and trailing commas, and the servers and inputs', () => {
    expect(preview.candidates.map((c) => c.name)).toEqual([
      'everything',
      'github',
      'perplexity',
      'filesystem',
    ]);
    expect(byName.everything!.exists).toBe(true);
  });

  it('turns inputs into questions with their description, password flag and default', () => {
    expect(preview.questions).toEqual([
      { id: 'input:log-level', description: 'Log level', password: false, default: 'info' },
      {
        id: 'input:github-token',
        description: 'GitHub Personal Access Token',
        password: true,
        default: null,
      },
      { id: 'input:perplexity-key', description: 'Perplexity API Key', password: true, default: null },
      {
        id: 'workspaceFolder',
        description: 'The project folder the configuration belongs to.',
        password: false,
        default: '/work/app',
      },
    ]);
    expect(byName.github!.server.bearer_token).toBe('${input:github-token}');
    expect(byName.perplexity!.server.env).toEqual({
      PERPLEXITY_API_KEY: '${input:perplexity-key}',
      HOME_DIR: { env: 'HOME' },
    });
  });

  it('warns about envFile, cwd and fields it does not carry over', () => {
    expect(byName.perplexity!.warnings.join('\n')).toMatch(
      /envFile.*not supported[\s\S]*cwd.*project folder/,
    );
    expect(byName.filesystem!.warnings).toEqual(['The field "dev" is not carried over.']);
  });

  it('stores password answers as secrets and substitutes the rest', () => {
    const result = confirmImport(preview, ['github', 'perplexity', 'filesystem'], {
      'input:github-token': { secret: 'ghp_answer' },
      'input:perplexity-key': { secret: 'pplx_answer' },
      workspaceFolder: '/work/app',
    });
    const [github, perplexity, filesystem] = result.servers;
    expect(github!.bearer_token).toEqual({ secret: true });
    expect(perplexity!.env).toEqual({ PERPLEXITY_API_KEY: { secret: true }, HOME_DIR: { env: 'HOME' } });
    expect(parseCommandLine(filesystem!.command!).args).toEqual([
      '/work/app/build/index.js',
      '--root=/work/app',
    ]);
    expect(result.secrets).toEqual([
      { server: 'github', name: MCP_BEARER_SECRET, value: 'ghp_answer' },
      { server: 'perplexity', name: 'PERPLEXITY_API_KEY', value: 'pplx_answer' },
    ]);
    expect(JSON.stringify(result.servers)).not.toMatch(/ghp_answer|pplx_answer/);
  });

  it('reads the mcp section of a settings.json too', () => {
    const settings = `{ "editor.fontSize": 14, "mcp": { "servers": { "x": { "command": "node", "args": ["s.js"] } } } }`;
    expect(previewImport('vscode', settings, null, []).candidates[0]!.server.command).toBe('node s.js');
  });
});
