import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/mcp/command-line';
import { confirmImport, previewImport } from '../../src/mcp/import';
import { McpConfigError } from '../../src/mcp/mcp-config-error';
import { CreateMcpServerRequest, McpImportPreview } from '../../src/protocol/mcp';
import { fixture } from './import-fixture';

const file = fixture('claude_desktop_config.json');

describe('import from Claude Desktop', () => {
  it('previews every server with its full command line and environment names', () => {
    const preview = previewImport('claude_desktop', file.text, file.path, ['everything']);
    expect(McpImportPreview.parse(preview)).toBeTruthy();
    expect(preview.path).toBe(file.path);
    expect(preview.candidates.map((c) => c.name)).toEqual(['everything', 'filesystem', 'github', 'sqlite']);
    const byName = Object.fromEntries(preview.candidates.map((c) => [c.name, c]));
    expect(byName.everything!.exists).toBe(true);
    expect(byName.filesystem!.exists).toBe(false);
    expect(parseCommandLine(byName.filesystem!.server.command!)).toEqual({
      program: 'npx',
      args: [
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '/Users/alice/Desktop',
        '/Users/alice/Documents/Project Notes',
      ],
    });
    expect(byName.github!.server.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: { secret: true },
      GITHUB_TOOLSETS: 'repos,issues',
    });
    expect(byName.sqlite!.warnings.join(' ')).toMatch(/disabled in Claude Desktop/);
    expect(preview.questions).toEqual([]);
  });

  it('never puts a literal token from the file in the preview, and hands it over for the keychain on confirm', () => {
    const preview = previewImport('claude_desktop', file.text, file.path, []);
    expect(JSON.stringify(preview)).not.toContain('ghp_FIXTURE');
    expect(preview.candidates.find((c) => c.name === 'github')!.warnings.join(' ')).toMatch(/keychain/);
    const result = confirmImport(preview, ['github', 'filesystem'], {});
    expect(result.servers.map((s) => s.name)).toEqual(['github', 'filesystem']);
    for (const server of result.servers) expect(CreateMcpServerRequest.parse(server)).toEqual(server);
    expect(JSON.stringify(result.servers)).not.toContain('ghp_FIXTURE');
    expect(result.secrets).toEqual([
      {
        server: 'github',
        name: 'GITHUB_PERSONAL_ACCESS_TOKEN',
        value: 'ghp_FIXTUREfixtureFIXTUREfixture0000',
      },
    ]);
  });

  it('refuses to confirm file secrets from a preview that went through JSON (the values are not in it)', () => {
    const preview = previewImport('claude_desktop', file.text, file.path, []);
    const roundTripped = JSON.parse(JSON.stringify(preview)) as McpImportPreview;
    expect(() => confirmImport(roundTripped, ['github'])).toThrow(/read the file again/);
    // Servers without file secrets confirm from any copy.
    expect(confirmImport(roundTripped, ['filesystem']).servers).toHaveLength(1);
  });

  it('reads a file without mcpServers as the wrong file', () => {
    expect(() => previewImport('claude_desktop', '{"globalShortcut": ""}', '/c.json', [])).toThrow(
      McpConfigError,
    );
    expect(() => previewImport('claude_desktop', '{"globalShortcut": ""}', '/c.json', [])).toThrow(
      /\/c\.json has no "mcpServers"/,
    );
    expect(() => previewImport('claude_desktop', '[]', null, [])).toThrow(/should hold a JSON object/);
    expect(() => previewImport('claude_desktop', '{"mcpServers": []}', null, [])).toThrow(
      /should be an object/,
    );
  });
});
