import fs from 'node:fs';
import os from 'node:os';
import { badRequest, CairnError, notFound } from '../../errors';
import { confirmImport, defaultImportPaths, type ImportPreview, previewImport } from '../../mcp/import';
import type { McpImportPreview, McpImportRequest, McpImportResult, McpServer } from '../../protocol';
import type { Store } from '../../store/store';
import { resolveProjectRoot } from '../../tools/project-root';
import type { McpConfigService } from './mcp-config-service';

/** Config files are small; a larger file is not one. */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Imports servers from Claude Desktop, Cursor, VS Code and Claude Code configs in two steps: a preview of
 * every server in the file (full command, env names, the placeholders to answer), then, with `confirm`,
 * only the servers the user chose, created disabled, their secrets in the keychain.
 */
export class McpImportService {
  constructor(
    private readonly store: Store,
    private readonly config: McpConfigService,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async run(request: McpImportRequest): Promise<McpImportPreview | McpImportResult> {
    const preview = this.preview(request);
    if (!request.confirm) return stripPrivate(preview);
    // The same file read again: literal credentials it holds travel only inside this process.
    const confirmed = confirmImport(preview, request.confirm.servers, request.confirm.answers ?? {});
    const created: McpServer[] = [];
    try {
      for (const server of confirmed.servers) {
        const made = await this.config.create(server);
        created.push(made);
        const secrets = confirmed.secrets.filter((s) => s.server === server.name);
        if (secrets.length > 0) {
          await this.config.setSecrets(made.id, Object.fromEntries(secrets.map((s) => [s.name, s.value])));
        }
      }
    } catch (err) {
      // All or nothing: a failure halfway leaves no half-imported servers behind.
      for (const server of created) await this.config.delete(server.id).catch(() => {});
      throw err;
    }
    return { imported: await Promise.all(created.map((s) => this.config.get(s.id))) };
  }

  private preview(request: McpImportRequest): ImportPreview {
    const existing = this.store.mcpServers.list().map((r) => r.config.name);
    if (request.content !== undefined) return previewImport(request.source, request.content, null, existing);
    const file = request.path ?? this.defaultFile(request);
    let text: string;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) throw badRequest(`${file} is not a file.`);
      if (stat.size > MAX_FILE_BYTES)
        throw badRequest(`${file} is larger than 1 MiB: it is not an MCP config.`);
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof CairnError) throw err;
      throw badRequest(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
    }
    return previewImport(request.source, text, file, existing);
  }

  /** The first of the source's usual places that exists. */
  private defaultFile(request: McpImportRequest): string {
    let projectRoot: string | undefined;
    if (request.project_id) {
      const project = this.store.projects.get(request.project_id);
      if (!project) throw notFound('Project', request.project_id);
      projectRoot = resolveProjectRoot(project.path);
    }
    const candidates = defaultImportPaths(request.source, {
      home: os.homedir(),
      platform: process.platform,
      ...(this.env.APPDATA ? { appData: this.env.APPDATA } : {}),
      ...(projectRoot ? { projectRoot } : {}),
    });
    const found = candidates.find((file) => fs.existsSync(file));
    if (!found) {
      throw new CairnError(
        'not_found',
        `No ${request.source.replace('_', ' ')} config found. Looked in: ${candidates.join(', ') || '(nowhere: choose a project or a file)'}. Choose the file instead.`,
      );
    }
    return found;
  }
}

/** The wire preview: plain data only (the literal credentials stay in this process). */
function stripPrivate(preview: ImportPreview): McpImportPreview {
  return { path: preview.path, candidates: preview.candidates, questions: preview.questions };
}
