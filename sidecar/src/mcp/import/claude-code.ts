import path from 'node:path';
import type { ImportFormat } from './import-format';
import { serversUnder } from './servers-object';

/** Claude Code's project `.mcp.json`: `mcpServers`, with `${VAR}` and `${VAR:-default}`. */
export const claudeCodeFormat: ImportFormat = {
  source: 'claude_code',
  app: 'Claude Code',
  envRefs: 'bare',
  servers: (root, fileLabel) => serversUnder(root, 'mcpServers', fileLabel, 'Claude Code'),
  inputs: () => new Map(),
  // Its user-level servers live inside ~/.claude.json among unrelated state; only the project file is read.
  defaultPaths: ({ platform, projectRoot }) =>
    projectRoot === undefined
      ? []
      : [(platform === 'win32' ? path.win32 : path.posix).join(projectRoot, '.mcp.json')],
};
