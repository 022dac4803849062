import path from 'node:path';
import type { ImportFormat } from './import-format';
import { serversUnder } from './servers-object';

/** Claude Desktop's `claude_desktop_config.json`: `mcpServers`, no placeholder syntax of its own. */
export const claudeDesktopFormat: ImportFormat = {
  source: 'claude_desktop',
  app: 'Claude Desktop',
  envRefs: 'none',
  servers: (root, fileLabel) => serversUnder(root, 'mcpServers', fileLabel, 'Claude Desktop'),
  inputs: () => new Map(),
  defaultPaths: ({ home, platform, appData }) => {
    const file = 'claude_desktop_config.json';
    if (platform === 'win32') {
      return [path.win32.join(appData ?? path.win32.join(home, 'AppData', 'Roaming'), 'Claude', file)];
    }
    if (platform === 'darwin')
      return [path.posix.join(home, 'Library', 'Application Support', 'Claude', file)];
    return [path.posix.join(home, '.config', 'Claude', file)];
  },
};
