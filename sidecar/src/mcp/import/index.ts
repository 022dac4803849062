/** Importing MCP servers from Claude Desktop, Cursor, VS Code and Claude Code configs. */
export {
  applyAnswers,
  type ConfirmedImport,
  confirmImport,
  type McpImportAnswer,
  type McpImportAnswers,
} from './confirm-import';
export type { ImportPlaces } from './import-format';
export { defaultImportPaths } from './import-formats';
export { type ImportPreview, previewImport } from './preview-import';
