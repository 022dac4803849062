import { describe, expect, it } from 'vitest';
import { defaultImportPaths } from '../../src/mcp/import';

describe('defaultImportPaths', () => {
  it("finds Claude Desktop's config where each platform keeps it", () => {
    expect(defaultImportPaths('claude_desktop', { home: '/Users/a', platform: 'darwin' })).toEqual([
      '/Users/a/Library/Application Support/Claude/claude_desktop_config.json',
    ]);
    expect(defaultImportPaths('claude_desktop', { home: '/home/a', platform: 'linux' })).toEqual([
      '/home/a/.config/Claude/claude_desktop_config.json',
    ]);
    expect(
      defaultImportPaths('claude_desktop', {
        home: 'C:\\Users\\a',
        platform: 'win32',
        appData: 'D:\\Roaming',
      }),
    ).toEqual(['D:\\Roaming\\Claude\\claude_desktop_config.json']);
    expect(defaultImportPaths('claude_desktop', { home: 'C:\\Users\\a', platform: 'win32' })).toEqual([
      'C:\\Users\\a\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ]);
  });

  it("puts a project's own file before the user's", () => {
    expect(defaultImportPaths('cursor', { home: '/home/a', platform: 'linux', projectRoot: '/p' })).toEqual([
      '/p/.cursor/mcp.json',
      '/home/a/.cursor/mcp.json',
    ]);
    expect(defaultImportPaths('cursor', { home: '/home/a', platform: 'linux' })).toEqual([
      '/home/a/.cursor/mcp.json',
    ]);
    expect(defaultImportPaths('vscode', { home: '/Users/a', platform: 'darwin', projectRoot: '/p' })).toEqual(
      ['/p/.vscode/mcp.json', '/Users/a/Library/Application Support/Code/User/mcp.json'],
    );
    expect(
      defaultImportPaths('vscode', { home: 'C:\\Users\\a', platform: 'win32', projectRoot: 'C:\\p' }),
    ).toEqual(['C:\\p\\.vscode\\mcp.json', 'C:\\Users\\a\\AppData\\Roaming\\Code\\User\\mcp.json']);
  });

  it("reads Claude Code's project file only, and has none without a project", () => {
    expect(
      defaultImportPaths('claude_code', { home: '/home/a', platform: 'linux', projectRoot: '/p' }),
    ).toEqual(['/p/.mcp.json']);
    expect(defaultImportPaths('claude_code', { home: '/home/a', platform: 'linux' })).toEqual([]);
  });
});
