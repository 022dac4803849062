import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostPaths } from '../src/host-paths';
import { localSidecarRunner } from '../src/local-sidecar-plan';

describe('host paths', () => {
  const app = path.resolve('/apps/Cairn/resources/app.asar');
  const userData = path.resolve('/home/u/.config/Cairn');

  it('finds the bundles under the app path and keeps diagnostics in userData/logs', () => {
    const paths = hostPaths(app, userData, {}, '/home/u');
    expect(paths.sidecarEntry).toBe(path.join(app, 'dist', 'sidecar', 'cairn.mjs'));
    expect(paths.rendererDir).toBe(path.join(app, 'renderer', 'dist'));
    expect(paths.preload).toBe(path.join(app, 'dist', 'electron', 'preload.cjs'));
    expect(paths.diagnosticsDir).toBe(path.join(userData, 'logs'));
  });

  it('shares the data directory with the CLI: CAIRN_DATA_DIR, else ~/.cairn', () => {
    expect(hostPaths(app, userData, {}, '/home/u').dataDir).toBe(path.resolve('/home/u/.cairn'));
    expect(hostPaths(app, userData, { CAIRN_DATA_DIR: '/srv/cairn' }, '/home/u').dataDir).toBe(
      path.resolve('/srv/cairn'),
    );
    expect(hostPaths(app, userData, { CAIRN_DATA_DIR: '  ' }, '/home/u').dataDir).toBe(
      path.resolve('/home/u/.cairn'),
    );
  });
});

describe('local sidecar runner', () => {
  it('uses utilityProcess when packaged', () => {
    expect(localSidecarRunner(true, { CAIRN_DEV_NODE: '/x/node' })).toEqual({ kind: 'utility-process' });
  });

  it('uses plain Node in development: CAIRN_DEV_NODE, else node from PATH', () => {
    expect(localSidecarRunner(false, { CAIRN_DEV_NODE: '/opt/node20/bin/node' })).toEqual({
      kind: 'node',
      nodePath: '/opt/node20/bin/node',
    });
    expect(localSidecarRunner(false, {})).toEqual({ kind: 'node', nodePath: 'node' });
  });
});
