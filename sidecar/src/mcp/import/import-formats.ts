import type { McpImportSource } from '../../protocol/mcp';
import { claudeCodeFormat } from './claude-code';
import { claudeDesktopFormat } from './claude-desktop';
import { cursorFormat } from './cursor';
import type { ImportFormat, ImportPlaces } from './import-format';
import { vscodeFormat } from './vscode';

export const IMPORT_FORMATS: Record<McpImportSource, ImportFormat> = {
  claude_desktop: claudeDesktopFormat,
  cursor: cursorFormat,
  vscode: vscodeFormat,
  claude_code: claudeCodeFormat,
};

/** Where each app keeps its MCP config, most specific first (project files before the user's own). */
export function defaultImportPaths(source: McpImportSource, places: ImportPlaces): string[] {
  return IMPORT_FORMATS[source].defaultPaths(places);
}
