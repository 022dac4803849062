// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in plain strings are the data under test.
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/mcp/command-line';
import { confirmImport, previewImport } from '../../src/mcp/import';
import { fixture } from './import-fixture';

const file = fixture('cursor-mcp.json');

describe('import from Cursor', () => {
  const preview = previewImport('cursor', file.text, file.path, []);
  const byName = Object.fromEntries(preview.candidates.map((c) => [c.name, c]));

  it('maps a whole ${env:VAR} value to an env reference, also behind "Bearer "', () => {
    expect(byName.github!.server.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: { env: 'GITHUB_TOKEN' } });
    expect(byName.github!.questions).toEqual([]);
    expect(byName.linear!.server).toEqual({
      name: 'linear',
      transport: 'streamable_http',
      url: 'https://mcp.linear.app/mcp',
      headers: { 'X-Client': 'cursor' },
      bearer_token: { env: 'LINEAR_API_KEY' },
    });
  });

  it('asks for ${workspaceFolder} and ${userHome} in arguments instead of guessing them', () => {
    expect(byName.filesystem!.questions).toEqual(['workspaceFolder', 'userHome']);
    expect(preview.questions.map((q) => q.id)).toEqual(['workspaceFolder', 'userHome']);
    // Not a project file here, so no suggestion either.
    expect(preview.questions.every((q) => q.default === null)).toBe(true);
    expect(() => confirmImport(preview, ['filesystem'])).toThrow(
      /needs answers for workspaceFolder, userHome/,
    );
    const { servers } = confirmImport(preview, ['filesystem'], {
      workspaceFolder: '/home/bob/my project',
      userHome: '/home/bob',
    });
    expect(parseCommandLine(servers[0]!.command!).args).toEqual([
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/home/bob/my project',
      '/home/bob/notes',
    ]);
  });

  it('suggests the project folder for ${workspaceFolder} in a project file', () => {
    const project = previewImport('cursor', file.text, '/home/bob/proj/.cursor/mcp.json', []);
    expect(project.questions.find((q) => q.id === 'workspaceFolder')!.default).toBe('/home/bob/proj');
    const win = previewImport('cursor', file.text, 'C:\\Users\\bob\\proj\\.cursor\\mcp.json', []);
    expect(win.questions.find((q) => q.id === 'workspaceFolder')!.default).toBe('C:\\Users\\bob\\proj');
  });

  it('keeps an SSE server as a candidate with a warning, to fix the URL after import', () => {
    expect(byName['legacy-sse']!.server.transport).toBe('streamable_http');
    expect(byName['legacy-sse']!.warnings.join(' ')).toMatch(/SSE transport.*Streamable HTTP/);
    expect(confirmImport(preview, ['legacy-sse']).servers[0]!.url).toBe('http://127.0.0.1:3001/sse');
  });
});
