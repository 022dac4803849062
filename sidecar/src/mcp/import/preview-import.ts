import path from 'node:path';
import type { McpImportPreview, McpImportQuestion, McpImportSource } from '../../protocol/mcp';
import { McpConfigError } from '../mcp-config-error';
import { FILE_SECRETS, type FileSecret } from './file-secrets';
import { isObject } from './import-format';
import { IMPORT_FORMATS } from './import-formats';
import { parseJsonc } from './jsonc';
import { describePlaceholder } from './placeholders';
import { buildCandidate } from './server-entry';

/**
 * Reads another app's MCP config and shows what importing it would create: every server with its full command
 * line and environment names, what cannot be carried over, and the placeholders the user must answer.
 * `filePath` is the file read (null for pasted text); `existingNames` are Cairn's servers, to flag clashes.
 */
/** A preview, plus the file's literal credentials by candidate name under a key JSON does not serialise. */
export type ImportPreview = McpImportPreview & {
  readonly [FILE_SECRETS]?: ReadonlyMap<string, FileSecret[]>;
};

export function previewImport(
  source: McpImportSource,
  fileText: string,
  filePath: string | null,
  existingNames: Iterable<string>,
): ImportPreview {
  const format = IMPORT_FORMATS[source];
  const label = filePath === null ? `The pasted ${format.app} configuration` : filePath;
  const root = parseJsonc(fileText, label);
  if (!isObject(root)) throw new McpConfigError(`${label} should hold a JSON object.`);
  const servers = format.servers(root, label);
  const inputs = format.inputs(root);
  const existing = new Set(existingNames);

  const questions = new Map<string, McpImportQuestion>();
  const fileSecrets = new Map<string, FileSecret[]>();
  const candidates = Object.entries(servers).map(([name, entry]) => {
    const { candidate, uses, fileSecrets: taken } = buildCandidate(name, entry, format);
    if (taken.length > 0) fileSecrets.set(name, taken);
    for (const use of uses) {
      const known = questions.get(use.id);
      if (known !== undefined) {
        if (known.default === null && use.default !== null) known.default = use.default;
        continue;
      }
      const declared = inputs.get(use.id);
      questions.set(use.id, {
        id: use.id,
        description: declared?.description ?? describePlaceholder(use.id),
        password: declared?.password ?? false,
        default: use.default ?? declared?.default ?? suggestedDefault(use.id, filePath),
      });
    }
    return { ...candidate, exists: existing.has(candidate.server.name) };
  });
  return { path: filePath, candidates, questions: [...questions.values()], [FILE_SECRETS]: fileSecrets };
}

/**
 * A project file (`<project>/.vscode/mcp.json`, `<project>/.cursor/mcp.json`) names its own workspace folder:
 * offered as the default answer, which the user still confirms.
 */
function suggestedDefault(id: string, filePath: string | null): string | null {
  if (filePath === null || (id !== 'workspaceFolder' && id !== 'workspaceFolderBasename')) return null;
  const p = /^[A-Za-z]:[\\/]|\\/.test(filePath) ? path.win32 : path.posix;
  const folder = p.dirname(filePath);
  if (!['.vscode', '.cursor'].includes(p.basename(folder))) return null;
  const root = p.dirname(folder);
  return id === 'workspaceFolder' ? root : p.basename(root);
}
