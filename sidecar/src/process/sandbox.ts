import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../config/app-paths';
import { CairnError } from '../errors';
import { macosSandboxProfile } from './sandbox-profile-macos';

/**
 * What a sandboxed process may touch: the project (writable), a few folders of Cairn's (the session's tool-call
 * results writable, the `cairn` command readable, the tool endpoint's socket), the rest of the system
 * read-only, a private /tmp, no other processes, Cairn's data directory not at all, and the network only when
 * allowed. The same spec is used by the shell tools, the kernels and loaded tools' workers.
 */
export interface SandboxSpec {
  /** The project folder (resolved with realpath): writable. */
  projectRoot: string;
  /** Other folders the processes may write, e.g. the session's tool-call results. */
  writable: readonly string[];
  /** Folders that are not there at all inside, e.g. Cairn's data directory. */
  hidden: readonly string[];
  /** Folders made readable again (read-only) where they lie inside a hidden one, e.g. the `cairn` command's. */
  readable: readonly string[];
  /** Folders of Unix sockets to connect to (the tool endpoint's), visible read-only at the same path. */
  sockets: readonly string[];
  network: boolean;
  /** The bubblewrap program on Linux: `bwrap` on PATH unless configured. */
  bwrap: string;
}

/** A command as it is started: wrapped in bwrap or sandbox-exec when a spec is given, else as it was. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /**
   * bwrap stays as the parent (and process group leader) of the command: a signal meant to interrupt the
   * command (SIGINT) must skip the leader, whose default action would end the whole sandbox.
   */
  leaderIsMonitor: boolean;
}

export type SandboxSupport = { ok: true } | { ok: false; message: string };

const TURN_OFF =
  'or turn the project\'s sandbox off (Settings, or PATCH /api/projects/{id} {"sandbox": "off"}).';
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const checked = new Map<string, SandboxSupport>();

/**
 * Whether the sandbox can run here, checked once per program (a trial run of bwrap with the flags it is given
 * later): Linux with a working bubblewrap, or macOS's sandbox-exec. Windows has none.
 */
export function sandboxSupport(
  bwrap = 'bwrap',
  platform: NodeJS.Platform = process.platform,
): SandboxSupport {
  const key = `${platform}\0${bwrap}`;
  let support = checked.get(key);
  if (!support) {
    support = probe(bwrap, platform);
    checked.set(key, support);
  }
  return support;
}

/** Throws sandbox_unavailable (with what to install) when the sandbox cannot run here. */
export function requireSandbox(bwrap = 'bwrap', platform: NodeJS.Platform = process.platform): void {
  const support = sandboxSupport(bwrap, platform);
  if (!support.ok) throw new CairnError('sandbox_unavailable', support.message);
}

/**
 * The command to start for `file args` in `cwd`: as it is without a spec; with one, inside the sandbox, after
 * checking that it can run (a sandboxed project never runs unconfined: sandbox_unavailable instead).
 */
export function sandboxCommand(
  spec: SandboxSpec | null | undefined,
  file: string,
  args: readonly string[],
  cwd: string,
): SandboxedCommand {
  if (!spec) return { file, args: [...args], leaderIsMonitor: false };
  requireSandbox(spec.bwrap);
  if (process.platform === 'darwin') {
    return {
      file: SANDBOX_EXEC,
      args: ['-p', macosSandboxProfile(spec), file, ...args],
      leaderIsMonitor: false,
    };
  }
  return { file: spec.bwrap, args: [...bwrapArgs(spec, cwd), '--', file, ...args], leaderIsMonitor: true };
}

/** Where Cairn's own files are: the resources folder of the packaged app, else the source tree. */
function cairnFilesDir(): string {
  return APP_ROOT.endsWith('.asar') ? path.dirname(APP_ROOT) : APP_ROOT;
}

/** Folders of the host's sockets, covered by empty ones inside the sandbox. */
const HOST_SOCKET_DIRS = ['/run/user', '/run/dbus'];
/** Single sockets elsewhere in /run, each covered by /dev/null (connecting to it is refused). */
const HOST_SOCKETS = ['/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman/podman.sock'];

/**
 * bubblewrap's options for a spec. Mounts apply in order: the system read-only, a private /dev, /proc and
 * /tmp, the host's sockets covered, the project writable, the hidden folders covered by empty ones, and then what must be reachable
 * inside them (or inside /tmp, where the tool endpoint's socket lives) bound again.
 */
export function bwrapArgs(spec: SandboxSpec, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // The host's sockets are reachable through a read-only view, network or not: the user's session bus (and
  // through it the keychain and `systemd-run --user`), the system bus, agents, and container engines' sockets.
  for (const dir of HOST_SOCKET_DIRS) if (exists(dir)) args.push('--tmpfs', dir);
  for (const socket of HOST_SOCKETS) if (exists(socket)) args.push('--ro-bind', '/dev/null', socket);
  args.push('--bind', spec.projectRoot, spec.projectRoot);
  for (const dir of spec.hidden) args.push('--tmpfs', dir);
  // Bound again after the covers: inside a hidden folder (or /tmp) they would be gone otherwise. Cairn's own
  // files (the kernel driver, the tool runtime's clients and workers) are read wherever Cairn is installed.
  const covered = [...spec.hidden, '/tmp'];
  const under = (dir: string) => covered.some((c) => inside(dir, c));
  // A readable folder inside a writable one is reachable already (a read-only bind would take the writes away).
  const writable = [spec.projectRoot, ...spec.writable];
  const rebound = [...spec.readable, cairnFilesDir()].filter(
    (dir) => under(dir) && !writable.some((w) => inside(dir, w)) && exists(dir),
  );
  for (const dir of rebound) args.push('--ro-bind', dir, dir);
  // What a folder bound again holds of the hidden ones stays hidden, and the project stays writable.
  for (const dir of spec.hidden)
    if (rebound.some((r) => inside(dir, r) && dir !== r)) args.push('--tmpfs', dir);
  if ([...spec.hidden, ...rebound].some((h) => inside(spec.projectRoot, h))) {
    args.push('--bind', spec.projectRoot, spec.projectRoot);
  }
  for (const dir of spec.writable) if (exists(dir)) args.push('--bind', dir, dir);
  // Read-only: connecting to a socket needs no write access, and the folder's socket cannot be replaced.
  for (const dir of spec.sockets) if (exists(dir)) args.push('--ro-bind', dir, dir);
  // Its own process namespace (a fresh /proc shows only the sandbox), gone when Cairn goes. No --new-session:
  // the child already leads its own session (spawned detached, without a terminal), and a new one would put
  // the command out of the process group that cancel, timeout and interrupt signal.
  args.push('--unshare-pid', '--unshare-ipc', '--die-with-parent');
  if (!spec.network) args.push('--unshare-net');
  args.push('--chdir', cwd);
  return args;
}

function probe(bwrap: string, platform: NodeJS.Platform): SandboxSupport {
  if (platform === 'win32') {
    return {
      ok: false,
      message: `The sandbox is not available on Windows; ${TURN_OFF.replace(/^or t/, 'T')}`,
    };
  }
  if (platform === 'darwin') {
    if (exists(SANDBOX_EXEC)) return { ok: true };
    return { ok: false, message: `The sandbox needs macOS's ${SANDBOX_EXEC}, which is missing; ${TURN_OFF}` };
  }
  if (platform !== 'linux') {
    return {
      ok: false,
      message: `The sandbox is not available on ${platform}; ${TURN_OFF.replace(/^or t/, 'T')}`,
    };
  }
  const install =
    'Install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: ' +
    'pacman -S bubblewrap)';
  const trial = spawnSync(
    bwrap,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--unshare-pid',
      '--die-with-parent',
      'true',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 30_000 },
  );
  if (trial.error) {
    const missing = (trial.error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      message: missing
        ? `The sandbox needs bubblewrap, and ${bwrap} was not found. ${install}, ${TURN_OFF}`
        : `bubblewrap (${bwrap}) could not be run: ${trial.error.message}. ${install}, ${TURN_OFF}`,
    };
  }
  if (trial.status !== 0) {
    const why = (trial.stderr ?? '').trim().split('\n')[0] || `exit code ${trial.status}`;
    return {
      ok: false,
      message:
        `bubblewrap (${bwrap}) is installed but cannot make a sandbox here (${why}). It needs unprivileged user ` +
        'namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 an AppArmor profile for bwrap). ' +
        `Allow them, ${TURN_OFF}`,
    };
  }
  return { ok: true };
}

function inside(dir: string, parent: string): boolean {
  const rel = path.relative(parent, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function exists(dir: string): boolean {
  return fs.existsSync(dir);
}
