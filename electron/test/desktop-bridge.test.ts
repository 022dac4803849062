import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesktopBridge } from '../src/desktop-bridge';
import { IPC_CHANNELS } from '../src/ipc-policy';

function recordingBridge(answer: unknown = undefined) {
  const calls: unknown[][] = [];
  const bridge = createDesktopBridge(async (...args) => {
    calls.push(args);
    return answer;
  });
  return { bridge, calls };
}

describe('the preload bridge', () => {
  it('exposes exactly the seven functions, and nothing that could reach ipcRenderer', () => {
    const { bridge } = recordingBridge();
    expect(Object.keys(bridge).sort()).toEqual(
      [
        'appVersion',
        'clearRemoteBackend',
        'getBackend',
        'openExternal',
        'openLoginUrl',
        'pickFolder',
        'setRemoteBackend',
      ].sort(),
    );
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
  });

  it('maps each function to one invoke on its own channel', async () => {
    const { bridge, calls } = recordingBridge('answer');
    expect(await bridge.getBackend()).toBe('answer');
    expect(await bridge.pickFolder()).toBe('answer');
    expect(await bridge.appVersion()).toBe('answer');
    await bridge.openExternal('https://example.com/');
    await bridge.openLoginUrl('https://auth.example.com/authorize?x=1');
    await bridge.clearRemoteBackend();
    await bridge.setRemoteBackend({ url: 'https://cairn.example.com', token: 't' });
    expect(calls).toEqual([
      [IPC_CHANNELS.getBackend],
      [IPC_CHANNELS.pickFolder],
      [IPC_CHANNELS.appVersion],
      [IPC_CHANNELS.openExternal, 'https://example.com/'],
      [IPC_CHANNELS.openLoginUrl, 'https://auth.example.com/authorize?x=1'],
      [IPC_CHANNELS.clearRemoteBackend],
      [IPC_CHANNELS.setRemoteBackend, { url: 'https://cairn.example.com', token: 't' }],
    ]);
  });

  it('forwards only url and token of a remote backend, and resolves the void calls to undefined', async () => {
    const { bridge, calls } = recordingBridge('leak');
    const input = { url: 'https://a', token: 'b', extra: { toString: () => 'x' } };
    expect(await bridge.setRemoteBackend(input)).toBeUndefined();
    expect(await bridge.clearRemoteBackend()).toBeUndefined();
    expect(await bridge.openExternal('https://a')).toBeUndefined();
    expect(await bridge.openLoginUrl('https://a')).toBeUndefined();
    expect(calls[0]).toEqual([IPC_CHANNELS.setRemoteBackend, { url: 'https://a', token: 'b' }]);
  });
});

/** Value imports of a file (type-only imports vanish when bundled). */
function valueImports(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
    if (!m[2]) found.push(m[3]!);
  }
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

describe('the sandboxed preload', () => {
  it("reaches only 'electron' and small local modules: no Node built-ins, no zod", () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of valueImports(file)) {
        if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), `${spec}.ts`));
        else bare.add(spec);
      }
    };
    visit(path.resolve(import.meta.dirname, '../src/preload.ts'));
    expect([...bare]).toEqual(['electron']);
    for (const file of seen)
      expect(path.relative(path.resolve(import.meta.dirname, '../src'), file)).not.toMatch(/^\.\./);
  });
});
