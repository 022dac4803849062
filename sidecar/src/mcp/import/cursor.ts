import path from 'node:path';
import type { ImportFormat } from './import-format';
import { serversUnder } from './servers-object';

/** Cursor's `mcp.json` (the project's `.cursor/mcp.json`, then `~/.cursor/mcp.json`): `mcpServers`, `${env:VAR}`. */
export const cursorFormat: ImportFormat = {
  source: 'cursor',
  app: 'Cursor',
  envRefs: 'env-prefix',
  servers: (root, fileLabel) => serversUnder(root, 'mcpServers', fileLabel, 'Cursor'),
  inputs: () => new Map(),
  defaultPaths: ({ home, platform, projectRoot }) => {
    const p = platform === 'win32' ? path.win32 : path.posix;
    return [
      ...(projectRoot === undefined ? [] : [p.join(projectRoot, '.cursor', 'mcp.json')]),
      p.join(home, '.cursor', 'mcp.json'),
    ];
  },
};
