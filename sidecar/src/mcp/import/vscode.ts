import path from 'node:path';
import { McpConfigError } from '../mcp-config-error';
import { type DeclaredInput, type ImportFormat, isObject } from './import-format';
import { serversUnder } from './servers-object';

/**
 * VS Code's `.vscode/mcp.json` (or the user profile's `mcp.json`): `servers` plus `inputs`, JSONC, with
 * `${env:VAR}`, `${input:id}`, `${workspaceFolder}` and friends. A settings.json with an `mcp` section works too.
 */
export const vscodeFormat: ImportFormat = {
  source: 'vscode',
  app: 'VS Code',
  envRefs: 'env-prefix',
  servers: (root, fileLabel) => serversUnder(sectionOf(root), 'servers', fileLabel, 'VS Code'),
  inputs: (root) => {
    const inputs = new Map<string, DeclaredInput>();
    const list = sectionOf(root).inputs;
    if (list === undefined) return inputs;
    if (!Array.isArray(list)) throw new McpConfigError('VS Code\'s "inputs" should be a list of inputs.');
    for (const input of list) {
      if (!isObject(input) || typeof input.id !== 'string') continue;
      inputs.set(`input:${input.id}`, {
        description: typeof input.description === 'string' ? input.description : null,
        password: input.password === true,
        default: typeof input.default === 'string' ? input.default : null,
      });
    }
    return inputs;
  },
  defaultPaths: ({ home, platform, appData, projectRoot }) => {
    const p = platform === 'win32' ? path.win32 : path.posix;
    const user =
      platform === 'win32'
        ? p.join(appData ?? p.join(home, 'AppData', 'Roaming'), 'Code', 'User', 'mcp.json')
        : platform === 'darwin'
          ? p.join(home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json')
          : p.join(home, '.config', 'Code', 'User', 'mcp.json');
    return [...(projectRoot === undefined ? [] : [p.join(projectRoot, '.vscode', 'mcp.json')]), user];
  },
};

function sectionOf(root: Record<string, unknown>): Record<string, unknown> {
  return root.servers === undefined && isObject(root.mcp) ? root.mcp : root;
}
