import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../src/config/app-paths';
import { type SandboxSpec, sandboxCommand, sandboxSupport } from '../../src/process/sandbox';
import { macosSandboxProfile, sbplString } from '../../src/process/sandbox-profile-macos';
import { describeSandbox, requireBubblewrap } from '../support/sandbox-support';

// The sandbox's arguments and profile as text (the macOS one cannot run here), and where it is unavailable.

const SPEC: SandboxSpec = {
  projectRoot: '/work/project',
  writable: ['/home/u/.cairn/sessions/ses_1/tool-calls'],
  hidden: ['/home/u/.cairn'],
  readable: ['/home/u/.cairn/bin', '/opt/cairn/python'],
  sockets: ['/no-such-socket-dir'],
  network: false,
  bwrap: 'bwrap',
};

describe('the macOS sandbox profile', () => {
  const profile = macosSandboxProfile(SPEC);

  it('allows writes only to the project, the writable folders and the temporary folders', () => {
    expect(profile).toContain('(deny file-write*)');
    expect(profile).toMatch(
      /\(allow file-write\* \(subpath "\/work\/project"\) \(subpath "\/home\/u\/\.cairn\/sessions\/ses_1\/tool-calls"\) \(subpath "\/private\/tmp"\)/,
    );
  });

  it('hides the data directory, then allows back what must be reachable (later rules win)', () => {
    const deny = profile.indexOf('(deny file-read* file-write* (subpath "/home/u/.cairn"))');
    const allow = profile.indexOf('(allow file-read* (subpath "/home/u/.cairn/bin")');
    expect(deny).toBeGreaterThan(0);
    expect(allow).toBeGreaterThan(deny);
  });

  it('keeps other processes out of reach and, with the network off, allows only the endpoint’s socket', () => {
    expect(profile).toContain('(allow process-info* (target same-sandbox))');
    expect(profile).toContain('(allow signal (target same-sandbox))');
    expect(profile).toContain('(deny network*)');
    expect(profile).toContain(
      '(allow network-outbound (remote unix-socket (subpath "/no-such-socket-dir")))',
    );
    expect(macosSandboxProfile({ ...SPEC, network: true })).not.toContain('(deny network*)');
  });

  it('quotes paths as SBPL strings', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
  });
});

describe('bubblewrap’s arguments', () => {
  it('make the system read-only, the project writable, and cover the data directory before binding back', () => {
    const { file, args, leaderIsMonitor } = sandboxCommand(
      { ...SPEC, hidden: ['/tmp/hidden-data'], writable: [], readable: [], sockets: [] },
      'bash',
      ['-c', 'true'],
      '/work/project',
    );
    if (process.platform !== 'linux') return;
    expect(file).toBe('bwrap');
    expect(leaderIsMonitor).toBe(true);
    // The host's socket folders are covered where this machine has them.
    const hostSockets = ['/run/user', '/run/dbus']
      .filter((dir) => fs.existsSync(dir))
      .map((dir) => `--tmpfs ${dir} `)
      .join('');
    // Cairn's own files are bound back when a cover hides them (a checkout under /tmp).
    const own = APP_ROOT.startsWith('/tmp/') ? `--ro-bind ${APP_ROOT} ${APP_ROOT} ` : '';
    expect(args.join(' ')).toBe(
      `--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp ${hostSockets}--bind /work/project /work/project ` +
        `--tmpfs /tmp/hidden-data ${own}--unshare-pid --unshare-ipc --die-with-parent --unshare-net --chdir /work/project -- bash -c true`,
    );
  });

  it('run as they are without a spec', () => {
    expect(sandboxCommand(null, 'bash', ['-c', 'x'], '/')).toEqual({
      file: 'bash',
      args: ['-c', 'x'],
      leaderIsMonitor: false,
    });
  });
});

describe('where the sandbox cannot run', () => {
  it('says so on Windows, and what to install where bubblewrap is missing', () => {
    const windows = sandboxSupport('bwrap', 'win32');
    expect(windows.ok).toBe(false);
    expect(!windows.ok && windows.message).toMatch(/not available on Windows/);
    const missing = sandboxSupport('/nonexistent/bwrap', 'linux');
    expect(!missing.ok && missing.message).toMatch(
      /\/nonexistent\/bwrap was not found\. Install bubblewrap \(Debian\/Ubuntu: apt install bubblewrap/,
    );
  });

  it('refuses to run a sandboxed command unconfined', () => {
    expect(() => sandboxCommand({ ...SPEC, bwrap: '/nonexistent/bwrap' }, 'bash', [], '/')).toThrow(
      process.platform === 'linux' ? /Install bubblewrap/ : /sandbox/,
    );
  });
});

describeSandbox('folders bound back under a cover', () => {
  beforeAll(requireBubblewrap);
  it('a readable folder under /tmp is read-only, what it holds of a hidden folder stays hidden, a project in it stays writable', () => {
    // Like a checkout of Cairn under /tmp holding its data directory and a project.
    const app = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-sbx-app-')));
    try {
      const data = path.join(app, 'data');
      const project = path.join(app, 'project');
      fs.mkdirSync(data);
      fs.mkdirSync(project);
      fs.writeFileSync(path.join(app, 'driver.py'), 'print("driver")');
      fs.writeFileSync(path.join(data, 'cairn.db'), 'secret');
      const spec: SandboxSpec = {
        projectRoot: project,
        writable: [],
        hidden: [data],
        readable: [app],
        sockets: [],
        network: false,
        bwrap: 'bwrap',
      };
      const script =
        `cat ${app}/driver.py; cat ${data}/cairn.db; echo "db $?"; echo made > ${project}/out.txt; ` +
        `echo x > ${app}/new.txt; echo "app $?"`;
      const { file, args } = sandboxCommand(spec, 'bash', ['-c', script], project);
      const run = spawnSync(file, args, { encoding: 'utf8' });
      expect(run.stdout).toContain('print("driver")');
      expect(run.stdout).not.toContain('secret');
      expect(run.stdout).toContain('db 1');
      expect(run.stdout).toContain('app 1');
      expect(fs.readFileSync(path.join(project, 'out.txt'), 'utf8')).toBe('made\n');
      expect(fs.existsSync(path.join(app, 'new.txt'))).toBe(false);
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });
});
