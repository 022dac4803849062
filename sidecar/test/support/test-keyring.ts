import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestKeyring {
  /** What a process needs in its environment to use this keyring. */
  env: { DBUS_SESSION_BUS_ADDRESS: string; HOME?: string };
  stop(): Promise<void>;
}

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'] as const;
const APT_HINT = 'Install them with: sudo apt-get install gnome-keyring libsecret-tools dbus';

/**
 * Starts a private D-Bus session bus and an unlocked gnome-keyring (Secret Service) on it, with a
 * throwaway HOME, so keychain tests exercise the real libsecret path without touching the user's
 * keyring or needing a desktop session. Linux only.
 */
export async function startTestKeyring(): Promise<TestKeyring> {
  const missing = TOOLS.filter((tool) => !onPath(tool));
  if (missing.length > 0) {
    throw new Error(`The test keyring needs ${missing.join(', ')}, which are not on PATH. ${APT_HINT}`);
  }

  const root = await mkdtemp(path.join(tmpdir(), 'cairn-keyring-'));
  const home = path.join(root, 'home');
  const runtime = path.join(root, 'run');
  for (const dir of [home, runtime]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    LANG: 'C.UTF-8',
  };

  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    // The keyring daemon exits with its bus, but stop both explicitly and wait so nothing leaks.
    for (const child of children.reverse()) await terminate(child);
    await rm(root, { recursive: true, force: true });
  };

  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      env: baseEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(bus);
    const address = await firstLine(bus, 'dbus-daemon');
    const env = { ...baseEnv, DBUS_SESSION_BUS_ADDRESS: address };

    const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    children.push(keyring);
    let keyringErr = '';
    keyring.stderr?.on('data', (chunk: Buffer) => {
      keyringErr += chunk.toString();
    });
    keyring.stdin?.on('error', () => {}); // an early exit is reported by the wait below
    // --unlock reads the password for the (new) login keyring from stdin; it must be non-empty.
    keyring.stdin?.end('cairn-test-keyring-password');

    await waitFor(async () => {
      if (keyring.exitCode !== null) {
        throw new Error(`gnome-keyring-daemon exited with ${keyring.exitCode}: ${keyringErr.trim()}`);
      }
      return hasOwner(env, 'org.freedesktop.secrets');
    }, 'gnome-keyring-daemon to own org.freedesktop.secrets');

    return { env: { DBUS_SESSION_BUS_ADDRESS: address, HOME: home }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function onPath(name: string): boolean {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return dirs.some((dir) => existsSync(path.join(dir, name)));
}

function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no address within 10 s: ${err}`)),
      10_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${what} could not start (${e.message}). ${APT_HINT}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${err.trim()}`));
    });
  });
}

function hasOwner(env: NodeJS.ProcessEnv, name: string): Promise<boolean> {
  const args = [
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    `string:${name}`,
  ];
  return new Promise((resolve) => {
    execFile('dbus-send', args, { env, timeout: 5_000 }, (error, stdout) => {
      resolve(!error && /boolean true/.test(stdout));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function terminate(child: ChildProcess): Promise<void> {
  const gone = child.pid === undefined || child.exitCode !== null || child.signalCode !== null;
  if (gone) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
