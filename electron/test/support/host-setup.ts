// Shared setup for the DesktopHost tests: a fake Electron (support/fake-host.ts) around the real
// host logic, real temp folders for userData and the app, real loopback servers for remote checks.
import fs from 'node:fs';
import path from 'node:path';
import { capabilitiesBody, healthBody } from '../../../sidecar/test/support/api-bodies';
import { tempDir } from '../../../sidecar/test/support/harness';
import { type LoopbackServer, listenOnLoopback } from '../../../sidecar/test/support/loopback-server';
import { DesktopHost } from '../../src/desktop-host';
import { FakeAdapter, FakeSupervisor } from './fake-host';

const dirs: string[] = [];
const servers: LoopbackServer[] = [];

/** Removes what setup() and cairnLikeServer() made (for afterEach). */
export async function cleanUpHosts(): Promise<void> {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => s.close()));
}

export function tempFolder(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** A host over a fake adapter, with a renderer folder holding an index.html, and the supervisors it made. */
export function setup(env: Record<string, string | undefined> = {}) {
  const userData = tempFolder('electron-host-userdata');
  const appPath = tempFolder('electron-host-app');
  fs.mkdirSync(path.join(appPath, 'renderer', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(appPath, 'renderer', 'dist', 'index.html'), '<title>Cairn UI</title>');
  const adapter = new FakeAdapter(userData, appPath);
  const supervisors: FakeSupervisor[] = [];
  const host = new DesktopHost({
    adapter,
    env,
    homeDir: userData,
    createSupervisor: () => {
      const supervisor = new FakeSupervisor();
      supervisors.push(supervisor);
      return supervisor;
    },
  });
  return { adapter, host, supervisors, userData };
}

/** A minimal Cairn-like server on loopback (health, and capabilities for `token`), for set-remote's check. */
export async function cairnLikeServer(token: string): Promise<string> {
  const server = await listenOnLoopback((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/health') return res.end(JSON.stringify(healthBody('2.0.0')));
    if (req.url === '/api/capabilities' && req.headers.authorization === `Bearer ${token}`) {
      return res.end(JSON.stringify(capabilitiesBody({ version: '2.0.0' })));
    }
    res.statusCode = 401;
    res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Missing or wrong token.' } }));
  });
  servers.push(server);
  return server.url;
}

/** Lets setImmediate work (the reload after a switch, a supervisor start) run. */
export const nextTick = () => new Promise((resolve) => setImmediate(resolve));
